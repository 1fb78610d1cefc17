"""Readable labels for byte-level BPE tokens (GPT-2, Llama 3, SmolLM2 …).

A byte-level tokenizer spells each token in a 256-character alphabet that stands for bytes
(``Ġ`` is a space, ``Ċ`` a newline), and cuts text into byte runs, not characters: 早 (three
bytes in UTF-8) may become two tokens, ``æĹ`` and ``©``. Shown as they are, such tokens are
mojibake; decoded one by one, they are "�". :func:`readable_labels` decodes the whole sequence
and gives each token the characters whose bytes it holds; a character cut over several tokens is
shown in each of them with a superscript counting its pieces, so 早上好 reads 早¹ 早² 上 好¹ 好²
(早 in two pieces, 上 whole, 好 in two). Spaces at a label's ends are dropped (the tokenizer glues
the space before a word to it: ``Ġcat`` reads "cat"); a token that is only white space reads
␣ (space), ↵ (newline) or ⇥ (tab), and other control characters show as their Unicode pictures.
"""

from __future__ import annotations

from collections.abc import Iterable

from .gguf_weights import CHAR_TO_BYTE

SUPERSCRIPTS = "¹²³⁴⁵⁶⁷⁸⁹"
_VISIBLE = {" ": "␣", "\n": "↵", "\r": "↵", "\t": "⇥"}


def token_bytes(token: str) -> bytes:
    """The bytes a byte-level token stands for (``"Ġcat"`` → ``b" cat"``). Characters outside
    the byte alphabet (a special token such as ``<|im_start|>`` is plain ASCII) stand for their
    own UTF-8 bytes."""
    out = bytearray()
    for c in token:
        b = CHAR_TO_BYTE.get(c)
        out.extend(c.encode("utf-8") if b is None else bytes([b]))
    return bytes(out)


def _characters(data: bytes) -> list[tuple[str, int, int]]:
    """(character, first byte, end byte) of each character of ``data``; a byte that starts no
    valid UTF-8 character is "�" on its own."""
    chars, p = [], 0
    while p < len(data):
        for size in (1, 2, 3, 4):
            try:
                c = data[p : p + size].decode("utf-8")
            except UnicodeDecodeError:
                continue
            chars.append((c, p, p + size))
            p += size
            break
        else:
            chars.append(("\ufffd", p, p + 1))
            p += 1
    return chars


def _visible(c: str) -> str:
    if c in _VISIBLE:
        return _VISIBLE[c]
    if ord(c) < 0x20:
        return chr(0x2400 + ord(c))  # ␀ … ␟, the control pictures
    if ord(c) == 0x7F:
        return "␡"
    return c


def _blank(c: str) -> bool:
    """White space with no picture of its own: a space, a no-break space (U+00A0), an
    ideographic space (U+3000) … (tab and newline have theirs: ⇥, ↵)."""
    return c.isspace() and c not in _VISIBLE or c == " "


def _tidy(parts: list[str]) -> str:
    text = "".join(parts)
    if all(_blank(c) for c in text):  # a token of spaces alone: ␣, never blank on screen
        return "␣"
    return "".join(_visible(c) for c in text.strip(" "))


def readable_labels(pieces: Iterable[bytes]) -> list[str]:
    """One readable label per token, from each token's bytes (a sequence of ``bytes``)."""
    pieces = [bytes(p) for p in pieces]
    starts, pos = [], 0
    for p in pieces:
        starts.append(pos)
        pos += len(p)
    ends = [s + len(p) for s, p in zip(starts, pieces)]
    parts: list[list[str]] = [[] for _ in pieces]
    t = 0  # the first token that may hold the current character
    for c, a, b in _characters(b"".join(pieces)):
        while ends[t] <= a:
            t += 1
        holders = [i for i in range(t, len(pieces)) if starts[i] < b and ends[i] > a]
        if len(holders) == 1:
            parts[holders[0]].append(c)
            continue
        for k, i in enumerate(holders):
            parts[i].append(_visible(c) + SUPERSCRIPTS[min(k, len(SUPERSCRIPTS) - 1)])
    labels = [_tidy(p) for p in parts]
    return [lab if lab else "∅" for lab in labels]


def byte_level_labels(tokens: Iterable[str]) -> list[str]:
    """:func:`readable_labels` of byte-level token strings (``["æĹ", "©", "ä¸Ĭ"]`` → 早¹ 早² 上)."""
    return readable_labels([token_bytes(t) for t in tokens])


def split_characters(labels: Iterable[object]) -> list[str]:
    """The characters that ``labels`` show cut into byte pieces (``猫¹`` and ``猫²`` both
    present), each once, in the order they first appear: a scene says once what 猫¹ 猫² mean."""
    texts = [str(t) for t in labels]
    pieces = {(a, b) for t in texts for a, b in zip(t, t[1:]) if b in SUPERSCRIPTS}
    out: list[str] = []
    for t in texts:
        for a, b in zip(t, t[1:]):
            cut = (a, SUPERSCRIPTS[0]) in pieces and (a, SUPERSCRIPTS[1]) in pieces
            if b in SUPERSCRIPTS and a not in SUPERSCRIPTS and cut and a not in out:
                out.append(a)
    return out
