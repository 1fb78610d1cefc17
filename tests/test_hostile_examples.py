"""Hostile example files, through the real console script: each is refused with exit code 2 and
one line naming the field (or the file) and the fix, quickly (a FIFO never hangs), with nothing
written under --out (issue 21, the loader's half: classes 1, 2, 3 and 5).

Each row: an id, how to make the input in a fresh folder, and the first stderr line expected
(after "attn-explain: error: "). The labels that stay accepted are checked the same way, with
``numbers`` exiting 0.
"""

import io
import json
import os
import pickle
import socket
import sys
import zipfile

import numpy as np
import pytest
from conftest import run_cli
from hypothesis import given, settings
from hypothesis import strategies as st

import attention_core as ac
from attention_core.example import visible_text

sys.set_int_max_str_digits(0)  # this file writes numbers of 5,000 digits

TWO = [[1, 0], [0, 1]]


# -- making inputs -------------------------------------------------------------------------------
def json_file(data, name="e.json"):
    def make(folder):
        (folder / name).write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        return name

    return make


def text_file(text, name="e.toml"):
    def make(folder):
        (folder / name).write_text(text, encoding="utf-8")
        return name

    return make


def labelled(*tokens, **more):
    """An example whose tokens are ``tokens`` (one 2-D embedding row each)."""
    n = len(tokens)
    rows = [[float(i == j) for j in range(2)] for i in range(n)]
    return json_file({"tokens": list(tokens), "embeddings": rows, **more})


def with_sidecar(write_npz, name="s"):
    """An example whose ``arrays`` sidecar is made by ``write_npz(path)``."""

    def make(folder):
        write_npz(folder / f"{name}.npz")
        data = {"tokens": ["a", "b"], "arrays": f"{name}.npz"}
        (folder / f"{name}.json").write_text(json.dumps(data), encoding="utf-8")
        return f"{name}.json"

    return make


def npz_members(**members):
    """A .npz (zip) file holding the given members as raw bytes."""

    def write(path):
        with zipfile.ZipFile(path, "w") as z:
            for member, blob in members.items():
                z.writestr(member, blob)

    return write


def npy(array) -> bytes:
    buf = io.BytesIO()
    np.save(buf, array, allow_pickle=True)
    return buf.getvalue()


def special(kind, name="e.toml", target=None):
    """A FIFO, a socket, a folder, a symbolic link (to ``target``) named ``name``."""

    def make(folder):
        path = folder / name
        if kind == "fifo":
            os.mkfifo(path)
        elif kind == "socket":
            s = socket.socket(socket.AF_UNIX)
            s.bind(str(path))
            s.close()
        elif kind == "folder":
            path.mkdir()
        elif kind == "link":
            os.symlink(target, path)
        return name

    return make


def sidecar_special(kind, target=None):
    def make(folder):
        special(kind, "s.npz", target)(folder)
        data = {"tokens": ["a", "b"], "arrays": "s.npz"}
        (folder / "s.json").write_text(json.dumps(data), encoding="utf-8")
        return "s.json"

    return make


BIG400 = int("9" * 400)
BIG5000 = int("9" * 5000)
FAR = "is far too large; every number of an example satisfies |x| ≤ 1,000,000"
EMOJI = (
    "contains emoji, which the videos cannot draw (colour emoji have no outlines); "
    "use a word instead"
)
NOT_ARRAY = (
    "is not a NumPy array of numbers (a pickled object or another kind of file); "
    "save plain arrays with numpy.savez"
)

# -- class 2: numbers too long to read, .npz members that are not arrays ---------------------------
NUMBERS = [
    (
        "json-400-digits",
        json_file({"tokens": ["a", "b"], "embeddings": [[1, BIG400], [0, 1]]}),
        f"embeddings[0][1]: a whole number of 400 digits {FAR}",
    ),
    (
        "json-5000-digits",
        json_file({"tokens": ["a", "b"], "embeddings": [[1, BIG5000], [0, 1]]}),
        f"embeddings[0][1]: a whole number of 5,000 digits {FAR}",
    ),
    (
        "toml-400-digits",
        text_file(f'tokens = ["a", "b"]\nembeddings = [[1, {BIG400}], [0, 1]]\n'),
        f"embeddings[0][1]: a whole number of 400 digits {FAR}",
    ),
    (
        "toml-5000-digits",
        text_file(f'tokens = ["a", "b"]\nembeddings = [[1, {BIG5000}], [0, 1]]\n'),
        f"embeddings[0][1]: a whole number of 5,000 digits {FAR}",
    ),
    (
        "json-negative-5000-digits",
        json_file({"tokens": ["a", "b"], "embeddings": [[1, 0], [-BIG5000, 1]]}),
        f"embeddings[1][0]: a whole number of 5,000 digits {FAR}",
    ),
    (
        "toml-5000-digits-multiline",
        text_file(f'tokens = ["a", "b"]\nembeddings = [\n  [1, 0],\n  [0, -{BIG5000}],\n]\n'),
        f"embeddings[1][1]: a whole number of 5,000 digits {FAR}",
    ),
    (
        "toml-heads-400-digits",
        text_file(f'tokens = ["a", "b"]\nembeddings = {TWO}\nheads = {BIG400}\n'),
        "heads: a whole number of 400 digits is outside 1 … 8",
    ),
    (
        "json-seed-5000-digits",
        json_file({"tokens": ["a", "b"], "embeddings": TWO, "seed": BIG5000}),
        "seed: a whole number of 5,000 digits is outside 0 … 4294967295",
    ),
    (
        "toml-mask-5000-digits",
        text_file(f'tokens = ["a", "b"]\nembeddings = {TWO}\nmask = [[1, 0], [1, {BIG5000}]]\n'),
        f"mask[1][1]: a whole number of 5,000 digits {FAR}",
    ),
    (
        "json-weight-400-digits",
        json_file(
            {
                "tokens": ["a", "b"],
                "embeddings": TWO,
                "weights": {"W_q": [[BIG400, 0], [0, 1]], "W_k": TWO, "W_v": TWO},
            }
        ),
        f"weights.W_q[0][0]: a whole number of 400 digits {FAR}",
    ),
    (
        "json-title-5000-digits",
        json_file({"tokens": ["a", "b"], "embeddings": TWO, "title": BIG5000}),
        "title: expected text in quotes, got int",
    ),
    (
        "toml-d_k-5000-digits",
        text_file(f'tokens = ["a", "b"]\nembeddings = {TWO}\nseed = 1\nd_k = {BIG5000}\n'),
        "d_k: a whole number of 5,000 digits is outside 1 … 16",
    ),
    (
        "toml-5000-digits-with-underscores",
        text_file('tokens = ["a"]\nembeddings = [[1' + "_0" * 5000 + ", 0]]\n"),
        f"embeddings[0][0]: a whole number of 5,001 digits {FAR}",
    ),
    (
        "toml-hex-5000-digits",
        text_file('tokens = ["a"]\nembeddings = [[0x' + "f" * 5000 + ", 0]]\n"),
        f"embeddings[0][0]: a whole number of 6,021 digits {FAR}",
    ),
    (
        "json-float-of-5000-digits",
        text_file('{"tokens": ["a"], "embeddings": [[' + "9" * 5000 + ".5, 0]]}", "e.json"),
        f"embeddings[0][0]: 999999999999… (a number of 5,002 characters) {FAR}",
    ),
    (
        "toml-float-beyond-float",
        text_file('tokens = ["a"]\nembeddings = [[0, -1e999]]\n'),
        f"embeddings[0][1]: -1e999 {FAR}",
    ),
    (
        "toml-digits-in-a-string-stay-text",
        text_file(f'title = "{BIG5000}"\ntokens = ["a"]\nembeddings = [[1, {BIG5000}]]\n'),
        "title: '99999999999999999999'… has 5,000 characters; at most 60 are allowed",
    ),
    (
        "npz-object-array",
        with_sidecar(npz_members(**{"embeddings.npy": npy(np.array(TWO, dtype=object))})),
        f"arrays: 'embeddings' in 's.npz' {NOT_ARRAY}",
    ),
    (
        "npz-text-member",
        with_sidecar(npz_members(**{"embeddings.npy": npy(np.eye(2)), "notes.txt": b"hi"})),
        f"arrays: 'notes.txt' in 's.npz' {NOT_ARRAY}",
    ),
    (
        "npz-pickle-member",
        with_sidecar(npz_members(**{"embeddings.npy": pickle.dumps(TWO)})),
        f"arrays: 'embeddings' in 's.npz' {NOT_ARRAY}",
    ),
    (
        "npz-pickled-list-as-npy",
        with_sidecar(npz_members(**{"W_q.npy": npy(np.array([[1], [1, 2]], dtype=object))})),
        f"arrays: 'W_q' in 's.npz' {NOT_ARRAY}",
    ),
    (
        "npz-structured-dtype",
        with_sidecar(
            lambda p: np.savez(p, embeddings=np.zeros(2, dtype=[("a", "<i8"), ("b", "<f8")]))
        ),
        "arrays: 'embeddings' in 's.npz' has dtype [('a', '<i8'), ('b', '<f8')]; expected numbers",
    ),
    (
        "npz-complex",
        with_sidecar(lambda p: np.savez(p, embeddings=np.eye(2) * 1j)),
        "arrays: 'embeddings' in 's.npz' has dtype complex128; expected numbers",
    ),
    (
        "npz-text-file",
        with_sidecar(lambda p: p.write_text("not a zip")),
        "arrays: 's.npz' is not a NumPy .npz file",
    ),
]

# -- class 3: labels a viewer cannot see or read ---------------------------------------------------
LABELS = [
    ("star", labelled("⭐", "b"), f"tokens[0]: '⭐' {EMOJI}"),
    ("watch", labelled("a", "⌚"), f"tokens[1]: '⌚' {EMOJI}"),
    (
        "only-zero-width-space",
        labelled("\u200b", "b"),
        "tokens[0]: '\\u200b' contains U+200B ZERO WIDTH SPACE, an invisible format character; "
        "remove it",
    ),
    (
        "only-soft-hyphen",
        labelled("\xad", "b"),
        "tokens[0]: '\\xad' contains U+00AD SOFT HYPHEN, an invisible format character; remove it",
    ),
    (
        "line-separator",
        labelled("a\u2028b", "c"),
        "tokens[0]: 'a\\u2028b' contains U+2028 LINE SEPARATOR, which breaks the line; keep a "
        "label on one line",
    ),
    (
        "paragraph-separator",
        labelled("a", "\u2029"),
        "tokens[1]: '\\u2029' contains U+2029 PARAGRAPH SEPARATOR, which breaks the line; keep a "
        "label on one line",
    ),
    (
        "bidi-override",
        labelled("\u202eabc", "b"),
        "tokens[0]: '\\u202eabc' contains U+202E RIGHT-TO-LEFT OVERRIDE, a bidirectional control "
        "that changes the order in which the label is shown; remove it",
    ),
    (
        "bidi-embedding",
        labelled("a\u202ab", "b"),
        "tokens[0]: 'a\\u202ab' contains U+202A LEFT-TO-RIGHT EMBEDDING, a bidirectional control "
        "that changes the order in which the label is shown; remove it",
    ),
    (
        "bidi-isolate",
        labelled("a", "\u2067x\u2069"),
        "tokens[1]: '\\u2067x\\u2069' contains U+2067 RIGHT-TO-LEFT ISOLATE, a bidirectional "
        "control that changes the order in which the label is shown; remove it",
    ),
    (
        "bidi-pop-isolate",
        labelled("x\u2069", "b"),
        "tokens[0]: 'x\\u2069' contains U+2069 POP DIRECTIONAL ISOLATE, a bidirectional control "
        "that changes the order in which the label is shown; remove it",
    ),
    (
        "bidi-in-source-tokens",
        json_file(
            {
                "tokens": ["a"],
                "embeddings": [[1, 0]],
                "source_tokens": ["b", "c\u2066"],
                "source_embeddings": TWO,
            }
        ),
        "source_tokens[1]: 'c\\u2066' contains U+2066 LEFT-TO-RIGHT ISOLATE, a bidirectional "
        "control that changes the order in which the label is shown; remove it",
    ),
    (
        "word-joiner",
        labelled("a\u2060b", "c"),
        "tokens[0]: 'a\\u2060b' contains U+2060 WORD JOINER, an invisible format character; "
        "remove it",
    ),
    (
        "byte-order-mark-inside",
        labelled("a\ufeff", "c"),
        "tokens[0]: 'a\\ufeff' contains U+FEFF ZERO WIDTH NO-BREAK SPACE, an invisible format "
        "character; remove it",
    ),
    (
        "bell",
        labelled("a\x07", "c"),
        "tokens[0]: 'a\\x07' contains control characters (newline, tab …); remove them",
    ),
    (
        "next-line",
        labelled("a\x85b", "c"),
        "tokens[0]: 'a\\x85b' contains control characters (newline, tab …); remove them",
    ),
    (
        "private-use",
        labelled("\ue000", "b"),
        "tokens[0]: '\\ue000' contains U+E000, a private-use character with no agreed glyph; "
        "remove it",
    ),
    (
        "private-use-plane-16",
        labelled("a", "\U00100000"),
        "tokens[1]: '\\U00100000' contains U+100000, a private-use character with no agreed "
        "glyph; remove it",
    ),
    (
        "unassigned",
        labelled("a\u0378", "b"),
        "tokens[0]: 'a\\u0378' contains U+0378, which is not an assigned Unicode character; "
        "remove it",
    ),
    (
        "hangul-filler",
        labelled("\u3164", "b"),
        "tokens[0]: '\\u3164' contains U+3164 HANGUL FILLER, which is drawn as nothing; remove it",
    ),
    (
        "grapheme-joiner",
        labelled("a\u034fb", "c"),
        "tokens[0]: 'a\\u034fb' contains U+034F COMBINING GRAPHEME JOINER, which is drawn as "
        "nothing; remove it",
    ),
    ("face", labelled("a", "😀"), f"tokens[1]: '😀' {EMOJI}"),
    ("heart-with-emoji-selector", labelled("❤\ufe0f", "b"), f"tokens[0]: '❤\\ufe0f' {EMOJI}"),
    ("flag", labelled("🇨🇳", "b"), f"tokens[0]: '🇨🇳' {EMOJI}"),
    ("keycap", labelled("1\ufe0f\u20e3", "b"), f"tokens[0]: '1\\ufe0f\u20e3' {EMOJI}"),
    ("umbrella", labelled("x☔", "b"), f"tokens[0]: 'x☔' {EMOJI}"),
    (
        "no-font-has-it",
        labelled("a", "\u0860"),
        "tokens[1]: 'ࡠ' contains U+0860 SYRIAC LETTER MALAYALAM NGA, which no installed font "
        "can draw; use a word instead (or install a font that has it)",
    ),
    (
        "braille-blank",
        labelled("\u2800", "b"),
        "tokens[0]: '\u2800' has no visible character (U+2800 BRAILLE PATTERN BLANK is drawn "
        "blank); use a word a viewer can read",
    ),
    (
        "braille-blanks-and-spaces",
        labelled("a", " \u2800\u2800 "),
        "tokens[1]: ' \u2800\u2800 ' has no visible character (U+2800 BRAILLE PATTERN BLANK is "
        "drawn blank); use a word a viewer can read",
    ),
    (
        "bidi-in-title",
        json_file({"tokens": ["a"], "embeddings": [[1, 0]], "title": "ok\u202e"}),
        "title: 'ok\\u202e' contains U+202E RIGHT-TO-LEFT OVERRIDE, a bidirectional control that "
        "changes the order in which the label is shown; remove it",
    ),
]

# labels that stay accepted: a viewer sees them and the fonts draw them
ACCEPTED = [
    ("full-width-digits", ["１２", "３"]),
    ("cjk", ["早", "上", "好"]),
    ("arabic-hebrew", ["مرحبا", "שלום"]),
    ("greek-accents", ["αβγ", "é", "e\u0301"]),
    ("text-symbols", ["★", "☺", "❤", "→", "x²"]),
    ("korean-japanese", ["안녕", "かな", "カナ"]),
]

# -- class 1: files that are not regular files (never opened, never a hang) ------------------------
FILES = [
    ("fifo", special("fifo"), "example: 'e.toml' is a named pipe (FIFO), not a regular file"),
    (
        "fifo-json",
        special("fifo", "e.json"),
        "example: 'e.json' is a named pipe (FIFO), not a regular file",
    ),
    ("socket", special("socket"), "example: 'e.toml' is a socket, not a regular file"),
    ("folder", special("folder"), "example: 'e.toml' is a folder; give a .toml or .json file"),
    (
        "link-to-dev-zero",
        special("link", target="/dev/zero"),
        "example: 'e.toml' is a link to '/dev/zero', which is a character device, not a regular "
        "file",
    ),
    (
        "fifo-sidecar",
        sidecar_special("fifo"),
        "arrays: 's.npz' is a named pipe (FIFO), not a regular file",
    ),
    (
        "sidecar-link-to-dev-zero",
        sidecar_special("link", "/dev/zero"),
        "arrays: 's.npz' is a link to '/dev/zero', which is a character device, not a regular file",
    ),
]

# -- class 5: the right thing named ----------------------------------------------------------------
LONG = "x" * 300_000
NAMED = [
    (
        "ragged-mask",
        json_file({"tokens": ["a", "b"], "embeddings": TWO, "mask": [[1, 0], [1]]}),
        "mask: ragged rows (lengths [1, 2]); every row needs the same number of values",
    ),
    (
        "ragged-mask-of-booleans",
        json_file({"tokens": ["a", "b"], "embeddings": TWO, "mask": [[True], [True, True]]}),
        "mask: ragged rows (lengths [1, 2]); every row needs the same number of values",
    ),
    (
        "ragged-per-head-W_v-widths",
        json_file(
            {
                "tokens": ["a", "b"],
                "embeddings": TWO,
                "heads": 2,
                "weights": {
                    "W_q": [[[1], [0]], [[0], [1]]],
                    "W_k": [[[1], [0]], [[0], [1]]],
                    "W_v": [[[1], [0]], [[0, 1], [1, 0]]],
                },
            }
        ),
        "weights.W_v[1]: shape 2×2, but weights.W_v[0] is 2×1; every matrix here needs the same "
        "shape",
    ),
    (
        "ragged-per-head-W_v-rows",
        json_file(
            {
                "tokens": ["a", "b"],
                "embeddings": TWO,
                "heads": 2,
                "weights": {
                    "W_q": [[[1], [0]], [[0], [1]]],
                    "W_k": [[[1], [0]], [[0], [1]]],
                    "W_v": [[[1], [0]], [[0], [1], [1]]],
                },
            }
        ),
        "weights.W_v: ragged rows (lengths [2, 3]); every row needs the same number of values",
    ),
    (
        "ragged-source-embeddings",
        json_file(
            {
                "tokens": ["a"],
                "embeddings": [[1, 0]],
                "source_tokens": ["b", "c"],
                "source_embeddings": [[1, 0], [1]],
            }
        ),
        "source_embeddings: ragged rows (lengths [1, 2]); every row needs the same number of "
        "values",
    ),
    (
        "link-loop",
        special("link", target="e.toml"),
        "example: 'e.toml' is a symbolic link loop (following it leads back to itself); fix or "
        "remove the link",
    ),
    (
        "link-to-dev-null",
        special("link", target="/dev/null"),
        "example: 'e.toml' is a link to '/dev/null', which is a character device, not a regular "
        "file",
    ),
    (
        "dangling-link",
        special("link", target="gone.toml"),
        "example: 'e.toml' is a link to 'gone.toml', which does not exist",
    ),
    (
        "sidecar-link-loop",
        sidecar_special("link", "s.npz"),
        "arrays: 's.npz' is a symbolic link loop (following it leads back to itself); fix or "
        "remove the link",
    ),
    (
        "300k-label",
        labelled(LONG, "b"),
        "tokens[0]: 'xxxxxxxxxxxxxxxxxxxx'… has 300,000 characters; at most 12 are allowed",
    ),
    (
        "300k-unknown-key",
        json_file({"tokens": ["a"], "embeddings": [[1, 0]], LONG: 1}),
        f"{LONG[:40]!r}… (300,000 characters): unknown key; known keys: title, tokens, "
        "embeddings, heads, weights, seed, d_k, d_v, head_form, mask, padding, "
        "positional_encoding, source_tokens, source_embeddings, scale, source, kv_heads, "
        "rotary_base, positions, query, key, key_pieces, head, block, model_text, head_scores",
    ),
    (
        "300k-mask-word",
        json_file({"tokens": ["a"], "embeddings": [[1, 0]], "mask": LONG}),
        f"mask: {LONG[:40]!r}… (300,000 characters) is not 'none', 'causal' or a 0/1 matrix",
    ),
    (
        "300k-head-form",
        json_file({"tokens": ["a"], "embeddings": [[1, 0]], "head_form": LONG}),
        f"head_form: {LONG[:40]!r}… (300,000 characters) is not one of split, independent",
    ),
    (
        "long-list-as-heads",
        json_file({"tokens": ["a"], "embeddings": [[1, 0]], "heads": [1] * 100_000}),
        f"heads: expected a whole number, got {repr([1] * 100_000)[:40]}…",
    ),
    (
        "300k-string-as-number",
        json_file({"tokens": ["a"], "embeddings": [[1, LONG]]}),
        f"embeddings[0][1]: expected a number, got {LONG[:40]!r}… (300,000 characters)",
    ),
    (
        "300k-sidecar-name",
        json_file({"tokens": ["a"], "arrays": LONG + ".npz"}),
        f"arrays: {LONG[:30] + '…' + (LONG + '.npz')[-49:]!r} does not exist next to the example "
        "file",
    ),
    (
        "value-as-given",
        json_file({"tokens": ["a", "b"], "embeddings": [[1, 1000000.4], [0, 1]]}),
        "embeddings[0, 1]: 1000000.4 is beyond the limit |x| ≤ 1,000,000",
    ),
    (
        "negative-value-as-given",
        text_file('tokens = ["a"]\nembeddings = [[-1000000.5, 0]]\n'),
        "embeddings[0, 0]: -1000000.5 is beyond the limit |x| ≤ 1,000,000",
    ),
    (
        "weight-value-as-given",
        json_file(
            {
                "tokens": ["a", "b"],
                "embeddings": TWO,
                "weights": {"W_q": TWO, "W_k": [[1, 0], [0, 1000001]], "W_v": TWO},
            }
        ),
        "weights.W_k[1, 1]: 1000001 is beyond the limit |x| ≤ 1,000,000",
    ),
    (
        "sidecar-value-as-given",
        with_sidecar(lambda p: np.savez(p, embeddings=np.array([[1.0, 0], [0, 1000000.25]]))),
        "embeddings[1, 1]: 1000000.25 is beyond the limit |x| ≤ 1,000,000",
    ),
]

REFUSED = NUMBERS + LABELS + FILES + NAMED


@pytest.mark.parametrize("make, first_line", [c[1:] for c in REFUSED], ids=[c[0] for c in REFUSED])
def test_a_hostile_example_is_refused_in_one_line(tmp_path, make, first_line):
    name = make(tmp_path)
    out = tmp_path / "out"
    r = run_cli("render", name, "--stills", "--out", out, cwd=tmp_path, timeout=60)
    assert r.returncode == 2, r.stderr[-2000:]
    lines = r.stderr.splitlines()
    assert lines and lines[0] == f"attn-explain: error: {first_line}"
    assert len(lines) == 1 and len(lines[0]) < 400 and "Traceback" not in r.stderr
    assert r.stdout == ""
    assert not out.exists() or not any(out.rglob("*"))


def test_the_table_holds_every_class_with_its_variants():
    # the named examples of the issue plus at least as many variants of our own, per class
    for table, at_least in ((NUMBERS, 12), (LABELS, 20), (FILES, 6), (NAMED, 16)):
        assert len(table) >= at_least
    assert len({c[0] for c in REFUSED}) == len(REFUSED)


@pytest.mark.parametrize("tokens", [c[1] for c in ACCEPTED], ids=[c[0] for c in ACCEPTED])
def test_labels_a_viewer_can_read_stay_accepted(tmp_path, tokens):
    name = labelled(*tokens)(tmp_path)
    r = run_cli("numbers", name, "--json", cwd=tmp_path, timeout=60)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["tokens"] == tokens


def test_drawability_comes_from_the_fonts_not_a_list():
    # the same character is decided by which font would draw it: ★ (text presentation) by an
    # outline font, ⭐ (emoji presentation) by the colour emoji font
    star = visible_text.drawing_font("⭐", visible_text.EMOJI_FAMILY)
    outline = visible_text.drawing_font("★", visible_text.LABEL_FONT)
    assert star.color and star.has("⭐") and not outline.color and outline.has("★")
    # ⭐ followed by the text-presentation selector is asked of the text fonts
    assert not visible_text.shown_as_emoji("⭐\ufe0e", 0) and visible_text.shown_as_emoji("⭐", 0)
    # the family the labels are drawn in is the scenes' own
    from scenes.mobjects.fonts import DEFAULT_FONT

    assert visible_text.LABEL_FONT == DEFAULT_FONT


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=6))
def test_every_text_is_accepted_or_refused_in_one_line_for_a_reason(text):
    import unicodedata

    why = visible_text.refusal(text)
    assert why is None or (why and "\n" not in why)
    if any(unicodedata.category(c) in ("Cc", "Cf", "Co", "Cn", "Cs", "Zl", "Zp") for c in text):
        assert why  # never an invisible, reordering or unassigned character
    if why is None:  # every character that needs a glyph has one from an outline font
        for i, c in enumerate(text):
            if unicodedata.category(c) in ("Zs", "Mn", "Me"):
                continue
            family = "emoji" if visible_text.shown_as_emoji(text, i) else visible_text.LABEL_FONT
            font = visible_text.drawing_font(c, family)
            assert font and font.has(c) and not font.color, (c, font)


def test_presets_and_titles_stay_valid():
    for ex in ac.PRESETS.values():
        assert ac.Example.from_dict(ex.to_dict(), name=ex.name).tokens == ex.tokens


def test_the_shared_reader_refuses_what_is_not_a_regular_file_before_opening(tmp_path):
    from attention_core.example.user_files import read_user_file

    (tmp_path / "ok.toml").write_bytes(b"abc")
    assert read_user_file(tmp_path / "ok.toml", 3, "course") == b"abc"
    with pytest.raises(ValueError, match=r"^course: 'ok.toml' is 3 bytes; at most 2 are read$"):
        read_user_file(tmp_path / "ok.toml", 2, "course", name="'ok.toml'")
    os.mkfifo(tmp_path / "pipe")  # opening it to read would wait for a writer
    with pytest.raises(ValueError, match=r"is a named pipe \(FIFO\), not a regular file$"):
        read_user_file(tmp_path / "pipe", 10, "course.examples_jsonl")
    (tmp_path / "zero").symlink_to("/dev/zero")
    with pytest.raises(ValueError, match="is a link to '/dev/zero', which is a character device"):
        read_user_file(tmp_path / "zero", 10, "course")
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    with pytest.raises(ValueError, match="symbolic link loop"):
        read_user_file(tmp_path / "loop", 10, "course")
    with pytest.raises(ValueError, match=r"^course: '/nonexistent/x' does not exist$"):
        read_user_file("/nonexistent/x", 10, "course")
    with pytest.raises(ValueError, match="NUL character"):
        read_user_file("a\x00b", 10, "course")
