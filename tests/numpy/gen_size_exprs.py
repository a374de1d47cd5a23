#!/usr/bin/env python3
"""Oracle cases for symbolic sizes (nt::size_expr): random expressions over random
symbol values, evaluated by Python itself. Run by CTest before test_config's
[numpy] cases.

The text of each expression is generated from the grammar of docs/config.md, which
is Python's for these operators, and handed to Python's own parser (eval) with the
symbols bound to an int type whose `/` divides exactly (else "inexact") and which
reports values outside 64 bits ("overflow"). So precedence, associativity, unary
signs, floor division of negative numbers and the order in which errors arise are
Python's, not a second implementation of ours.

Output, one case per line, tab-separated:
    <expression>  <name>=<value> ...  ok <value> | negative <value> | inexact | zero | overflow
"""
import re

import oracle

SYMBOLS = ["N", "H", "W", "K", "x_1", "Depth"]
INT64_MIN, INT64_MAX = -(2 ** 63), 2 ** 63 - 1


class Inexact(Exception):
    pass


class Overflow(Exception):
    pass


def checked(value):
    if value < INT64_MIN or value > INT64_MAX:
        raise Overflow()
    return I(value)


class I(int):
    """An int whose arithmetic is that of a size expression."""

    def __add__(self, other):
        return checked(int(self) + int(other))

    def __radd__(self, other):
        return checked(int(other) + int(self))

    def __sub__(self, other):
        return checked(int(self) - int(other))

    def __rsub__(self, other):
        return checked(int(other) - int(self))

    def __mul__(self, other):
        return checked(int(self) * int(other))

    def __rmul__(self, other):
        return checked(int(other) * int(self))

    def __truediv__(self, other):
        a, b = int(self), int(other)
        if b == 0:
            raise ZeroDivisionError()
        if a % b:
            raise Inexact()
        return checked(a // b)

    def __rtruediv__(self, other):
        return I(other).__truediv__(self)

    def __floordiv__(self, other):
        a, b = int(self), int(other)
        if b == 0:
            raise ZeroDivisionError()
        return checked(a // b)

    def __rfloordiv__(self, other):
        return I(other).__floordiv__(self)

    def __neg__(self):
        return checked(-int(self))

    def __pos__(self):
        return self


def evaluate(text, values):
    """Python's value of `text`, every literal and symbol an I."""
    wrapped = re.sub(r"\b(\d+)\b", r"I(\1)", text)
    try:
        result = eval(wrapped, {"I": I, "__builtins__": {}}, {k: I(v) for k, v in values.items()})
    except ZeroDivisionError:
        return "zero"
    except Inexact:
        return "inexact"
    except Overflow:
        return "overflow"
    return f"ok {int(result)}" if result >= 0 else f"negative {int(result)}"


class Generator:
    def __init__(self, rng):
        self.rng = rng

    def space(self):
        return self.rng.choice(["", "", " ", " ", "  "])

    def literal(self):
        r = self.rng.random()
        if r < 0.05:
            return str(self.rng.randint(2 ** 40, 2 ** 62))  # large: overflow on a product
        if r < 0.15:
            return "0"
        return str(self.rng.randint(1, 30))

    def primary(self, depth):
        r = self.rng.random()
        if depth > 0 and r < 0.25:
            return "(" + self.space() + self.expr(depth - 1) + self.space() + ")"
        if r < 0.6:
            return self.rng.choice(SYMBOLS)
        return self.literal()

    def unary(self, depth):
        signs = "".join(self.rng.choice("-+") + self.space() for _ in range(self.rng.choice([0, 0, 0, 0, 1, 1, 2, 3])))
        return signs + self.primary(depth)

    def term(self, depth):
        out = self.unary(depth)
        for _ in range(self.rng.choice([0, 0, 1, 1, 2])):
            out += self.space() + self.rng.choice(["*", "*", "//", "//", "/"]) + self.space() + self.unary(depth)
        return out

    def expr(self, depth):
        out = self.term(depth)
        for _ in range(self.rng.choice([0, 1, 1, 2, 3])):
            out += self.space() + self.rng.choice("+-") + self.space() + self.term(depth)
        return out

    def values(self):
        values = {}
        for name in SYMBOLS:
            r = self.rng.random()
            values[name] = 0 if r < 0.05 else self.rng.randint(2 ** 30, 2 ** 40) if r < 0.1 else self.rng.randint(1, 600)
        return values


def cases(args, rng, out):
    gen = Generator(rng)
    outcomes = {}
    for _ in range(args.count):
        text = gen.expr(rng.randint(0, 3)).strip()
        values = gen.values()
        verdict = evaluate(text, values)
        outcomes[verdict.split()[0]] = outcomes.get(verdict.split()[0], 0) + 1
        bound = " ".join(f"{k}={v}" for k, v in values.items())
        out.write(f"{text}\t{bound}\t{verdict}\n")
    return f"gen_size_exprs: {args.count} cases, outcomes {dict(sorted(outcomes.items()))}"


if __name__ == "__main__":
    oracle.run(cases, count=3000)
