"""textmutators.py - text mutators of the mutation campaign
(scripts/mutation-campaign.py) over MLIR files: kernels, devices and
DataflowIR. Each mutator takes a random.Random and the text and returns the
mutated text and a short description, or None when it finds nothing to
change; `mutate` applies one or two of them.
"""

import re

TOKEN = re.compile(
    r'"[^"\n]*"|%[\w.$#-]+|@[\w.$-]+|#[\w.$-]+|![\w.$]+|'
    r'0x[0-9a-fA-F]+|-?\d+\.\d*(?:[eE][-+]?\d+)?|-?\d+|\w+(?:\.\w+)*|->|\S')
INTEGER = re.compile(r"(?<![\w%#@.])-?\d+(?![\w.])")
FLOAT = re.compile(r"(?<![\w%#@.])-?\d+\.\d*(?:[eE][-+]?\d+)?(?![\w.])")
SHAPE_DIM = re.compile(r"(?<=[<x])(\d+|\?)(?=x)")
LIST = re.compile(r"\[([^\[\]\n]*)\]")
ATTRIBUTE = re.compile(
    r'(?<![%#@!\w])[a-z_]\w*\s*=\s*(?:"[^"\n]*"|\[[^\]\n]*\]|'
    r'[^,{}\[\]\n]+)(?:,\s*)?')
ELEMENT = re.compile(r"\b(f16|bf16|f32|f64|i1|i8|i16|i32|i64|index)\b")
ELEMENTS = ["f16", "bf16", "f32", "f64", "i1", "i8", "i16", "i32", "i64",
            "index"]
JUNK = ["}", "{", ")", "(", "]", "[", "<", ">", ",", ":", "=", "%", "#", "@",
        "!", "^bb0", "\"", "\\", "//", "0x", "?", "-", "1e999", "nan",
        "%0 = arith.constant 0 : index", "scf.yield", "ktdp.", "\x00", "\xff",
        "\u00e9", "x" * 300]


def spliced(text, start, end, new):
    return text[:start] + new + text[end:]


def pick_match(rng, regex, text):
    found = list(regex.finditer(text))
    return rng.choice(found) if found else None


def mutate_number(rng, value):
    """A new spelling of an integer or float literal."""
    try:
        v = int(value, 0)
    except ValueError:
        return rng.choice(["0.0", "-" + value.lstrip("-"), "1.0e300",
                           "-1.0e-300", "65504.0", "65520.0", "1.0e38",
                           "0x7FF8000000000000", "3.0e+38"])
    return str(rng.choice([0, -1, 1, 2 ** 31, 2 ** 31 - 1, 2 ** 32, 2 ** 62,
                           2 ** 63 - 1, -2 ** 63, v - 1, v + 1, 2 * v,
                           v // 2, v * 1000, -v]))


def token_delete(rng, text):
    t = pick_match(rng, TOKEN, text)
    return t and (spliced(text, t.start(), t.end(), ""),
                  "delete token %r" % t.group(0))


def token_duplicate(rng, text):
    t = pick_match(rng, TOKEN, text)
    return t and (spliced(text, t.start(), t.end(), t.group(0) + " " +
                          t.group(0)), "duplicate token %r" % t.group(0))


def token_swap(rng, text):
    tokens = list(TOKEN.finditer(text))
    if len(tokens) < 2:
        return None
    i = rng.randrange(len(tokens) - 1)
    a, b = tokens[i], tokens[i + 1]
    return (text[:a.start()] + b.group(0) + text[a.end():b.start()] +
            a.group(0) + text[b.end():],
            "swap tokens %r %r" % (a.group(0), b.group(0)))


def token_replace(rng, text):
    """A token replaced by another token of the file."""
    tokens = list(TOKEN.finditer(text))
    if len(tokens) < 2:
        return None
    a, b = rng.choice(tokens), rng.choice(tokens)
    return (spliced(text, a.start(), a.end(), b.group(0)),
            "replace token %r by %r" % (a.group(0), b.group(0)))


def number(rng, text):
    m = pick_match(rng, rng.choice([INTEGER, INTEGER, FLOAT]), text) or \
        pick_match(rng, INTEGER, text)
    if not m:
        return None
    new = mutate_number(rng, m.group(0))
    return (spliced(text, m.start(), m.end(), new),
            "number %s -> %s" % (m.group(0), new))


def shape(rng, text):
    m = pick_match(rng, SHAPE_DIM, text)
    if not m:
        return None
    new = rng.choice(["?", "0", "1", "3", "4096", "65536", "1000000",
                      str(int(m.group(0)) * 2) if m.group(0) != "?" else "8",
                      "2147483648"])
    return (spliced(text, m.start(), m.end(), new),
            "shape dim %s -> %s" % (m.group(0), new))


def list_edit(rng, text):
    m = pick_match(rng, LIST, text)
    if not m:
        return None
    items = [s.strip() for s in m.group(1).split(",")] if m.group(1).strip() \
        else []
    how = rng.choice(["drop", "duplicate", "swap", "empty", "append"])
    if how == "drop" and items:
        del items[rng.randrange(len(items))]
    elif how == "duplicate" and items:
        i = rng.randrange(len(items))
        items.insert(i, items[i])
    elif how == "swap" and len(items) > 1:
        i = rng.randrange(len(items) - 1)
        items[i], items[i + 1] = items[i + 1], items[i]
    elif how == "empty":
        items = []
    else:
        how = "append"
        items.append(rng.choice(items) if items else "1")
    return (spliced(text, m.start(1), m.end(1), ", ".join(items)),
            "list %s in %r" % (how, m.group(0)[:60]))


def truncate(rng, text):
    at = rng.randrange(len(text)) if text else 0
    return text[:at], "truncate at %d" % at


def line_edit(rng, text):
    lines = text.split("\n")
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    how = rng.choice(["delete", "duplicate", "swap", "move"])
    if how == "delete":
        del lines[i]
    elif how == "duplicate":
        lines.insert(j, lines[i])
    elif how == "swap":
        lines[i], lines[j] = lines[j], lines[i]
    else:
        lines.insert(j, lines.pop(i))
    return "\n".join(lines), "line %s %d %d" % (how, i + 1, j + 1)


def drop_attribute(rng, text):
    m = pick_match(rng, ATTRIBUTE, text)
    return m and (spliced(text, m.start(), m.end(), ""),
                  "drop attribute %r" % m.group(0)[:60])


def element_type(rng, text):
    m = pick_match(rng, ELEMENT, text)
    if not m:
        return None
    new = rng.choice([e for e in ELEMENTS if e != m.group(0)])
    return (spliced(text, m.start(), m.end(), new),
            "element type %s -> %s" % (m.group(0), new))


def junk(rng, text):
    at = rng.randrange(len(text) + 1)
    new = rng.choice(JUNK) if rng.random() < 0.7 else "".join(
        chr(rng.randrange(1, 256)) for _ in range(rng.randrange(1, 9)))
    return spliced(text, at, at, new), "junk %r at %d" % (new[:20], at)


MUTATORS = [token_delete, token_duplicate, token_swap, token_replace, number,
            number, number, shape, list_edit, list_edit, truncate, line_edit,
            drop_attribute, element_type, junk]


def mutate(rng, text):
    """One or two random mutations of `text`: (mutant, description)."""
    done = []
    for _ in range(1 if rng.random() < 0.7 else 2):
        for _ in range(10):
            result = rng.choice(MUTATORS)(rng, text)
            if result and result[0] != text:
                text = result[0]
                done.append(result[1])
                break
    return text, "; ".join(done)


def mutate_value(rng, text):
    """One numeric literal of a kernel's code (not of its comments nor of
    its types, where a change only breaks the types' agreement) changed by
    a small step: off by one, doubled, halved, 0 or negated."""
    spans = []
    offset = 0
    for line in text.split("\n"):
        code = line.split("//")[0]
        for m in list(INTEGER.finditer(code)) + list(FLOAT.finditer(code)):
            spans.append((offset + m.start(), offset + m.end(), m.group(0)))
        offset += len(line) + 1
    if not spans:
        return text, "nothing to change"
    start, end, old = rng.choice(spans)
    try:
        v = int(old)
        new = str(rng.choice([v - 1, v + 1, 2 * v, v // 2, 0, -v]))
    except ValueError:
        new = rng.choice(["0.0", "-" + old.lstrip("-"), repr(float(old) * 2),
                          repr(float(old) / 2), repr(float(old) + 1)])
    return spliced(text, start, end, new), "value %s -> %s" % (old, new)
