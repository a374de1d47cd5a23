#!/usr/bin/env python3
"""Oracle cases for nt/optim.hpp: torch.optim (PyTorch 1.13) SGD, Adam and AdamW run
20 steps on a small regression problem, and the parameters after every step are the
expected values. Run by CTest before test_autograd's [numpy][optim] cases
(tests/autograd/optim.cpp), which compute the same loss with ntensor's operations,
call backward(), step() and zero_grad(), and compare.

The problem (float32 or float64; x is (N, I, 1), y is (N, O)):

    pred = c * sum(x * w, axis 1) + b                      w (I, O), b (O), c ()
    loss = sum(square(pred - y)) * (1 / N) + sum(square(square(w))) * 0.1
    from step `late` on:  loss = loss + sum(square(d * 2 - 1)) + sum(d * b)      d (O)

and a parameter u (2) that the loss never uses. So d has no gradient before step
`late` (skipped, its state starts later, as torch skips p.grad None) and u never
has one (never changes, even under AdamW's decay). Every step is zero_grad(),
backward(), step(), as the usual loop; the loss is written exactly as the C++ side
writes it, operation by operation.

Output (line based; a shape is "<rank> <sizes...>", names one token per axis, "?"
for an unnamed axis):

    # seed <S> count <N>
    case <id> <sgd|adam|adamw> <steps> <late> <option>=<value> ...
    input <dtype> <shape> <names> values <v...>        x, then y
    param <dtype> <shape> <names> values <v...>        w, b, c, d, u (the start)
    after <step> <param index> values <v...>           (every step, every parameter)
    end

Options: lr, momentum, dampening, weight_decay, nesterov (0/1) for sgd; lr, beta1,
beta2, eps, weight_decay, amsgrad (0/1) for adam and adamw.
"""
import math

import torch

import oracle

STEPS = 20
DTYPES = {"f32": torch.float32, "f64": torch.float64}
# The largest float32 drift from float64 (|difference| / (1 + |value|)) a case may have.
MAX_FLOAT_DRIFT = 2e-6


def sgd_options(rng):
    momentum = rng.choice([0.0, 0.0, 0.5, 0.9])
    dampening = rng.choice([0.1, 0.5]) if momentum and rng.random() < 0.3 else 0.0
    return {"lr": rng.choice([0.005, 0.01, 0.03]), "momentum": momentum, "dampening": dampening,
            "weight_decay": rng.choice([0.0, 0.0, 1e-3, 0.05]),
            "nesterov": bool(momentum and not dampening and rng.random() < 0.5)}


def adam_options(rng, decoupled):
    beta1, beta2 = rng.choice([(0.9, 0.999), (0.9, 0.999), (0.8, 0.99), (0.5, 0.9), (0.0, 0.99)])
    wd = [0.0, 1e-2, 0.1] if decoupled else [0.0, 0.0, 1e-2, 0.1]
    return {"lr": rng.choice([1e-3, 1e-2, 0.05]), "beta1": beta1, "beta2": beta2,
            "eps": rng.choice([1e-8, 1e-8, 1e-6, 1e-3]), "weight_decay": rng.choice(wd),
            "amsgrad": rng.random() < 0.3}


def make_optimizer(kind, params, o):
    if kind == "sgd":
        return torch.optim.SGD(params, lr=o["lr"], momentum=o["momentum"], dampening=o["dampening"],
                               weight_decay=o["weight_decay"], nesterov=o["nesterov"])
    cls = torch.optim.Adam if kind == "adam" else torch.optim.AdamW
    return cls(params, lr=o["lr"], betas=(o["beta1"], o["beta2"]), eps=o["eps"], weight_decay=o["weight_decay"],
               amsgrad=o["amsgrad"])


def loss_of(x, y, w, b, c, d, n, with_d):
    pred = c * torch.sum(x * w, 1) + b
    loss = torch.sum(torch.square(pred - y)) * (1.0 / n) + torch.sum(torch.square(torch.square(w))) * 0.1
    if with_d:
        loss = loss + torch.sum(torch.square(d * 2.0 - 1.0)) + torch.sum(d * b)
    return loss


def gauss(rng, shape, scale, dtype):
    n = math.prod(shape)
    return torch.tensor([rng.gauss(0.0, 1.0) * scale for _ in range(n)], dtype=torch.float64).reshape(shape).to(dtype)


def option_text(v):
    if isinstance(v, bool):
        return "1" if v else "0"
    return repr(float(v))


def operand(word, t):
    return (f"{word} {'f32' if t.dtype == torch.float32 else 'f64'} {oracle.shape_text(t.shape)} "
            f"{oracle.names_text(None, t.dim())} values {oracle.values_text(t.detach().numpy())}\n")


def trajectory(kind, o, x, y, start, late, dtype):
    """The parameters after each step, or None when they leave the tame region."""
    params = [t.to(dtype).clone().requires_grad_(True) for t in start]
    opt = make_optimizer(kind, params, o)
    w, b, c, d, _ = params
    n = x.shape[0]
    x, y = x.to(dtype), y.to(dtype)
    after = []
    for step in range(STEPS):
        opt.zero_grad()
        loss_of(x, y, w, b, c, d, n, step >= late).backward()
        opt.step()
        now = [p.detach().clone() for p in params]
        for v in now:
            if not bool(torch.all(torch.isfinite(v))) or (v.numel() and float(v.abs().max()) > 20.0):
                return None
        after.append(now)
    return after


def attempt(rng):
    """One case as text, or None when the trajectory leaves the tame region or, in
    float32, is ill-conditioned (comparing such trajectories says nothing about the
    update rules)."""
    kind = rng.choice(["sgd", "adam", "adamw"])
    tag = rng.choice(["f32", "f64"])
    dtype = DTYPES[tag]
    o = sgd_options(rng) if kind == "sgd" else adam_options(rng, kind == "adamw")
    n, i_size = rng.randint(1, 5), rng.randint(1, 4)
    o_size = 0 if rng.random() < 0.04 else rng.randint(1, 4)
    late = rng.choice([0, 0, 5, 12, STEPS])
    x = gauss(rng, (n, i_size, 1), 1.0, dtype)
    y = gauss(rng, (n, o_size), 1.0, dtype)
    start = [gauss(rng, (i_size, o_size), 0.5, dtype), gauss(rng, (o_size,), 0.5, dtype),
             (1.0 + gauss(rng, (), 0.3, dtype)).to(dtype), gauss(rng, (o_size,), 0.5, dtype), gauss(rng, (2,), 0.5, dtype)]
    after = trajectory(kind, o, x, y, start, late, dtype)
    if after is None:
        return None
    if dtype == torch.float32:
        # Rounding differences (another summation order, a*b/c against a*(b/c)) grow
        # along some trajectories: where a normalised Adam update divides a gradient
        # that is almost zero, the sign of its rounding error decides the step. The
        # same run in float64 measures that growth; such draws are redrawn, so the
        # test's float32 tolerance is about the update rules.
        exact = trajectory(kind, o, x, y, start, late, torch.float64)
        if exact is None:
            return None
        for now, ref in zip(after, exact):
            for v, r in zip(now, ref):
                if v.numel() and float(((v.double() - r).abs() / (1 + r.abs())).max()) > MAX_FLOAT_DRIFT:
                    return None
    lines = [f"case {{cid}} {kind} {STEPS} {late} " + " ".join(f"{k}={option_text(v)}" for k, v in o.items()) + "\n",
             operand("input", x), operand("input", y)] + [operand("param", t) for t in start]
    for step, now in enumerate(after):
        for k, v in enumerate(now):
            lines.append(f"after {step} {k} values {oracle.values_text(v.numpy())}\n")
    lines.append("end\n")
    return "".join(lines)


def cases(args, rng, out):
    torch.set_num_threads(1)
    rejected = 0
    for cid in range(args.count):
        while (text := attempt(rng)) is None:
            rejected += 1
        out.write(text.replace("{cid}", str(cid), 1))
    return f"optimiser cases: {args.count} ({rejected} diverging or ill-conditioned draws redrawn), seed {args.seed}"


if __name__ == "__main__":
    oracle.run(cases, count=300, header_line=True, description=__doc__.splitlines()[0])
