"""The narration heard back (issue 42, point 6): one real caption of each language, filled with
the core's numbers as its scene fills it, written for the ear (:func:`spoken`), said by the voice
(:func:`clip`) and transcribed by a speech recogniser shipped on PyPI (Whisper base, see
:mod:`scenes.speech.hearing`): the words heard are the words meant, within a word error rate of
10 % (English) and a character error rate of 15 % (Chinese, compared syllable by syllable in
toneless pinyin: the recogniser writes a homophone, 键 as 剑, where the voice said the right
syllable). Numbers are compared as words (digits written by the recogniser are said as the
voice said them). The clips live in the user's clip cache, as a render's do: said once.
"""

from __future__ import annotations

import re

import pytest

import attention_core as ac
from scenes.kit import captions
from scenes.mobjects.numfmt import fmt
from scenes.speech import hearing
from scenes.speech.hearing import transcribe
from scenes.speech.spoken import spoken
from scenes.speech.voice import clip

pytestmark = pytest.mark.xdist_group("voice")

ONES = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
TEENS = [
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
TENS = ["_", "_", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def _integer_words(n: int) -> list[str]:
    if n >= 1000:
        return (
            _integer_words(n // 1000)
            + ["thousand"]
            + (_integer_words(n % 1000) if n % 1000 else [])
        )
    if n >= 100:
        rest = _integer_words(n % 100) if n % 100 else []
        return [ONES[n // 100], "hundred", *rest]
    if n >= 20:
        return [TENS[n // 10]] + ([ONES[n % 10]] if n % 10 else [])
    return [TEENS[n - 10]] if n >= 10 else [ONES[n]]


def _number_words(text: str) -> str:
    whole, _, decimals = text.lstrip("-").partition(".")
    said = (["minus"] if text.startswith("-") else []) + _integer_words(int(whole))
    if decimals:
        said += ["point", *(ONES[int(d)] for d in decimals)]
    return " ".join(said)


def en_words(text: str) -> list[str]:
    """Lower case, numbers as words, every mark but a word's letters and digits dropped."""
    text = _NUMBER.sub(lambda m: f" {_number_words(m.group())} ", text.replace("−", "-"))
    return re.sub(r"[^a-z0-9]+", " ", text.lower()).split()


def zh_syllables(text: str) -> list[str]:
    """Each Chinese character as its toneless pinyin (numbers in Chinese numerals first), each
    Latin word lower case; marks dropped."""
    import cn2an
    from pypinyin import lazy_pinyin

    text = _NUMBER.sub(lambda m: cn2an.an2cn(m.group()), text.replace("−", "-"))
    out = []
    for run in re.findall(r"[\u4e00-\u9fff]+|[A-Za-z0-9]+", text):
        out += lazy_pinyin(run) if re.match(r"[\u4e00-\u9fff]", run) else [run.lower()]
    return out


def error_rate(meant: list[str], heard: list[str]) -> float:
    """Levenshtein distance over the units meant (substitutions, deletions, insertions)."""
    row = list(range(len(heard) + 1))
    for i, m in enumerate(meant, 1):
        prev, row[0] = row[0], i
        for j, h in enumerate(heard, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (m != h))
    return row[-1] / max(len(meant), 1)


def rotary_score_caption(example: str, q: int, k: int, lang: str) -> str:
    """RotaryPositions' score step: 'The dot product after turning is the score attention
    uses: q(…)·k(…) = <the core's score>.'"""
    ex = ac.load_example(example)
    score = ac.trace_example(ex).attention.scores[q, k]
    values = {"q": f"q({ex.tokens[q]})", "k": f"k({ex.tokens[k]})", "score": fmt(score, 2)}
    return captions.caption("RotaryPositions", "score", lang, **values)


def test_the_error_rates_count_what_was_misheard():
    assert en_words("Q of cat's direction is 12.4.") == [
        "q",
        "of",
        "cat",
        "s",
        "direction",
        "is",
        "twelve",
        "point",
        "four",
    ]
    assert error_rate(en_words("it is 27.3"), en_words("It is 27, three.")) == 1 / 6
    assert zh_syllables("等于负一点六九") == zh_syllables("等于-1.69")
    assert error_rate(zh_syllables("好的键"), zh_syllables("好的剑")) == 0
    assert error_rate(zh_syllables("早的键"), zh_syllables("走的键")) == 1 / 3


CASES = [
    # (language, example, query, key, the most a recogniser may mishear)
    ("en", "examples/smollm2-baker.toml", 10, 9, 0.10),  # q(baker)·k(friendly)
    ("zh", "rotary", 2, 0, 0.15),  # q(好)·k(早), 早上好 turned by position
]


@pytest.mark.parametrize(("lang", "example", "q", "k", "most"), CASES, ids=[c[0] for c in CASES])
def test_a_narrated_step_is_heard_back(lang, example, q, k, most):
    said = spoken(rotary_score_caption(example, q, k, lang), lang)
    heard = transcribe(clip(said, lang).path, lang)
    units = en_words if lang == "en" else zh_syllables
    rate = error_rate(units(said), units(heard))
    assert rate <= most, f"{lang}: {rate:.0%} misheard; said {said!r}, heard {heard!r}"


def test_a_missing_or_damaged_recogniser_is_refused_in_one_line(tmp_path):
    installed = hearing.check_recogniser()  # as `make setup` left it
    for name in hearing._pinned():
        (tmp_path / name).symlink_to(installed / name)
    assert hearing.check_recogniser(tmp_path) == tmp_path
    (tmp_path / "config.json").unlink()
    (tmp_path / "config.json").write_text("{}")
    with pytest.raises(hearing.RecogniserUnavailable) as damaged:
        hearing.check_recogniser(tmp_path)
    (tmp_path / "config.json").unlink()
    (tmp_path / "config.json").symlink_to(installed / "config.json")
    (tmp_path / "model.bin").unlink()
    with pytest.raises(hearing.RecogniserUnavailable) as missing:
        hearing.check_recogniser(tmp_path)
    for refused, what in ((damaged, "config.json is damaged"), (missing, "model.bin is missing")):
        line = str(refused.value)
        assert (
            "\n" not in line
            and what in line
            and line.endswith("run `make setup` to fetch it again")
        )
