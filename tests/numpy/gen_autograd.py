#!/usr/bin/env python3
"""Oracle cases for ntensor's gradients, computed by PyTorch (Debian's python3-torch,
1.13): random composite programs of element-wise operations, reductions along named
axes, softmax, where, clip and flips over three inputs with partly named axes, and
the layers' losses; for each, the value, the gradient with respect to every input
and a Hessian-vector product (the gradient of <grad f(A), V> with respect to A).
Run by CTest before test_autograd's [numpy][torch] cases
(tests/autograd/torch_programs.cpp).

The inputs, in ntensor's axis order and names:
    A  (N, C, ?)   the last axis unnamed
    B  (C, N)      the named axes of A in another order: matched by names
    W  (?)         unnamed: right-aligned with A's unnamed axis
PyTorch has no names: the program runs on views aligned to (N, C, ?), built inside
its graph (B permuted and unsqueezed, W reshaped), so its gradients come back in
each input's own order, as ntensor's do. Reductions keep their axis in PyTorch
(keepdim) and drop it in ntensor, where the names broadcast it back.

A program is a prefix expression of tokens; the value is the sum of its elements:
    leaves       A B W
    unary        neg exp sin cos tanh sigmoid abs square erf relu gelu
                 scale (x * 1.5)  shift (x + 0.25)  powsq (pow(1 + x*x, 1.5))
                 clip (clip(x, -0.5, 0.5))  lsig (log(sigmoid(x)))
                 sqrt1 (sqrt(1 + x*x))
    binary       add sub mul maximum minimum atan2 hypot
                 divsq (a / (1 + b*b))
    ternary      wgt (where(a > 0, b, c))
    along an axis (N or C; the axis must be in the operand)
                 sum_N mean_N max_N lse_N softmax_N logsoftmax_N flip_N, and _C
Layers (the program is a layer call):
    layer mse | l1             a = f(A, B) operands A, B
    layer ce <weights> <ign>   logits A (class axis C), integer labels over (N, ?)
    layer dice                 probs softmax(A, C), one-hot labels

Output (a shape is "<rank> <sizes...>", names one token per axis, "?" unnamed):
    # seed <S> count <N>
    case <id> <tokens...>
    input <A|B|W|V> <shape> <names> values <v...>   (V: the vector of the hvp)
    labels <shape> <names> values <v...>            (layers ce and dice)
    weights <shape> <names> values <v...>           (layer ce with weights)
    value <v>
    grad <A|B|W> values <v...>
    hvp values <v...>
    end
"""
import torch

import oracle

UNARY = ["neg", "exp", "sin", "cos", "tanh", "sigmoid", "abs", "square", "erf", "relu", "gelu", "scale",
         "shift", "powsq", "clip", "lsig", "sqrt1"]
BINARY = ["add", "sub", "mul", "maximum", "minimum", "atan2", "hypot", "divsq"]
ALONG = ["sum", "mean", "max", "lse", "softmax", "logsoftmax", "flip"]
AXIS_DIM = {"N": 0, "C": 1}


def unary(op, x, second_order):
    if op == "abs" and second_order:
        # PyTorch 1.13's double backward through abs (SgnBackward) can return
        # uninitialised memory; x * sign(x), the sign held constant, has abs's value,
        # gradient (0 at 0) and second derivative (0).
        return x * torch.sign(x).detach()
    return {
        "neg": lambda: -x, "exp": lambda: torch.exp(x), "sin": lambda: torch.sin(x), "cos": lambda: torch.cos(x),
        "tanh": lambda: torch.tanh(x), "sigmoid": lambda: torch.sigmoid(x), "abs": lambda: torch.abs(x),
        "square": lambda: torch.square(x), "erf": lambda: torch.erf(x), "relu": lambda: torch.relu(x),
        "gelu": lambda: torch.nn.functional.gelu(x), "scale": lambda: x * 1.5, "shift": lambda: x + 0.25,
        "powsq": lambda: torch.pow(1 + x * x, 1.5), "clip": lambda: torch.clamp(x, -0.5, 0.5),
        "lsig": lambda: torch.log(torch.sigmoid(x)), "sqrt1": lambda: torch.sqrt(1 + x * x),
    }[op]()


def binary(op, a, b):
    return {
        "add": lambda: a + b, "sub": lambda: a - b, "mul": lambda: a * b, "maximum": lambda: torch.maximum(a, b),
        "minimum": lambda: torch.minimum(a, b), "atan2": lambda: torch.atan2(a, b),
        "hypot": lambda: torch.hypot(a, b), "divsq": lambda: a / (1 + b * b),
    }[op]()


def along(op, axis, x):
    d = AXIS_DIM[axis]
    if op == "sum":
        return x.sum(d, keepdim=True)
    if op == "mean":
        return x.mean(d, keepdim=True)
    if op == "max":
        return x.max(d, keepdim=True).values
    if op == "lse":
        return torch.logsumexp(x, d, keepdim=True)
    if op == "softmax":
        return torch.softmax(x, d)
    if op == "logsoftmax":
        return torch.log_softmax(x, d)
    return torch.flip(x, [d])


def random_program(rng, depth):
    """A prefix program and the axes of its result: a subset of N, C and U (the
    unnamed axis). ntensor broadcasts an operand into a host that has all its axes
    (a broadcast never adds axes to the host), so the operands of a binary or ternary
    operation are drawn until one of them holds the others' axes."""
    r = rng.random()
    if depth == 0 or r < 0.2:
        leaf = rng.choice(["A", "A", "B", "W"])
        return [leaf], {"A": {"N", "C", "U"}, "B": {"N", "C"}, "W": {"U"}}[leaf]
    if r < 0.5:
        tokens, axes = random_program(rng, depth - 1)
        return [rng.choice(UNARY)] + tokens, axes
    if r < 0.8:
        arity = 3 if r >= 0.75 else 2
        for _ in range(20):
            parts = [random_program(rng, depth - 1) for _ in range(arity)]
            axes = set().union(*(a for _, a in parts))
            if any(a == axes for _, a in parts):
                head = ["wgt"] if arity == 3 else [rng.choice(BINARY)]
                return head + [t for tokens, _ in parts for t in tokens], axes
    tokens, axes = random_program(rng, depth - 1)
    named = sorted(axes - {"U"})
    if not named:
        return tokens, axes
    axis = rng.choice(named)
    op = rng.choice(ALONG)
    keeps = op in ("softmax", "logsoftmax", "flip")
    return [op + "_" + axis] + tokens, axes if keeps else axes - {axis}


def evaluate(tokens, leaves, second_order=False):
    """The torch value of a prefix program (consumes `tokens`, a list, from the front)."""
    op = tokens.pop(0)

    def next_operand():
        return evaluate(tokens, leaves, second_order)

    if op in leaves:
        return leaves[op]
    if op in UNARY:
        return unary(op, next_operand(), second_order)
    if op in BINARY:
        a = next_operand()
        return binary(op, a, next_operand())
    if op == "wgt":
        a = next_operand()
        b = next_operand()
        return torch.where(a > 0, b, next_operand())
    name, axis = op.rsplit("_", 1)
    return along(name, axis, next_operand())


def values(t):
    return oracle.values_text(t.detach().numpy())


def write_input(out, label, t, names):
    out.write(f"input {label} {oracle.shape_text(t.shape)} {' '.join(names)} values {values(t)}\n")


def generate(args, rng, out):
    torch.manual_seed(rng.randrange(2**31))
    torch.set_default_dtype(torch.float64)
    layers = 0
    for case in range(args.count):
        n, c, w = rng.randint(1, 3), rng.randint(1, 4), rng.randint(1, 4)
        a = (torch.rand(n, c, w) * 2 - 1).requires_grad_()
        b = (torch.rand(c, n) * 2 - 1).requires_grad_()
        ww = (torch.rand(w) * 2 - 1).requires_grad_()
        v = torch.rand(n, c, w) * 2 - 1
        aligned = {"A": a, "B": b.t().unsqueeze(-1), "W": ww.reshape(1, 1, w)}
        labels = weights = None
        if rng.random() < 0.15:
            layers += 1
            kind = rng.choice(["mse", "l1", "ce", "dice"])
            if kind in ("mse", "l1"):
                tokens = ["layer", kind]
                f = lambda: (torch.nn.functional.mse_loss if kind == "mse" else torch.nn.functional.l1_loss)(
                    aligned["A"], aligned["B"].expand(n, c, w))
            elif kind == "ce":
                labels = torch.randint(0, c, (n, w))
                weighted = rng.random() < 0.5
                ignore = rng.randrange(c) if rng.random() < 0.5 else None
                if ignore is not None and bool((labels == ignore).all()):
                    ignore = None
                weights = torch.linspace(0.5, 1.5, c) if weighted else None
                tokens = ["layer", "ce", "1" if weighted else "0", "-" if ignore is None else str(ignore)]
                f = lambda: torch.nn.functional.cross_entropy(
                    aligned["A"], labels, weight=weights, ignore_index=-100 if ignore is None else ignore)
            else:
                labels = torch.randint(0, c, (n, w))
                tokens = ["layer", "dice"]

                def f():
                    p = torch.softmax(aligned["A"], 1)
                    t = torch.nn.functional.one_hot(labels, c).permute(0, 2, 1).to(p.dtype)
                    inter = (p * t).sum((0, 2))
                    dice = (2 * inter + 1) / (p.sum((0, 2)) + t.sum((0, 2)) + 1)
                    return 1 - dice.mean()
        else:
            tokens, _ = random_program(rng, rng.randint(1, 4))
            f = lambda: evaluate(list(tokens), aligned).sum()
        y = f()
        ga, gb, gw = torch.autograd.grad(y, [a, b, ww], allow_unused=True, create_graph=True)
        grads = [g if g is not None else torch.zeros_like(x) for g, x in ((ga, a), (gb, b), (gw, ww))]
        if tokens == ["layer", "l1"]:
            # PyTorch 1.13's fused l1_loss has a second derivative that is not |x|'s (0
            # almost everywhere); the same loss written out has the right one.
            d = aligned["A"] - aligned["B"]
            ga = torch.autograd.grad(unary("abs", d, True).mean(), a, create_graph=True)[0]
        elif tokens[0] != "layer":
            y2 = evaluate(list(tokens), aligned, second_order=True).sum()
            ga = torch.autograd.grad(y2, a, allow_unused=True, create_graph=True)[0]
        if ga is not None and ga.requires_grad:
            hvp = torch.autograd.grad((ga * v).sum(), a, allow_unused=True)[0]
        else:
            hvp = None
        if hvp is None:
            hvp = torch.zeros_like(a)
        out.write(f"case {case} {' '.join(tokens)}\n")
        write_input(out, "A", a, ["N", "C", "?"])
        write_input(out, "B", b, ["C", "N"])
        write_input(out, "W", ww, ["?"])
        write_input(out, "V", v, ["N", "C", "?"])
        if labels is not None:
            out.write(f"labels {oracle.shape_text(labels.shape)} N ? values {values(labels)}\n")
        if weights is not None:
            out.write(f"weights {oracle.shape_text(weights.shape)} ? values {values(weights)}\n")
        out.write(f"value {oracle.value_text(float(y))}\n")
        for label, g in zip("ABW", grads):
            out.write(f"grad {label} values {values(g)}\n")
        out.write(f"hvp values {values(hvp)}\n")
        out.write("end\n")
    return f"{args.count} programs ({layers} layer calls)"


if __name__ == "__main__":
    oracle.run(generate, header_line=True, description=__doc__)
