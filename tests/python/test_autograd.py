"""Gradients, learning layers, losses and optimisers from Python, against PyTorch
computing the same program in the test."""
import numpy as np
import pytest
import torch

import ntensor as nt

RNG = np.random.default_rng(7)


def torch_leaf(a):
    return torch.tensor(a, dtype=torch.float64, requires_grad=True)


def test_backward_of_a_named_program_matches_torch():
    x, w = RNG.random((4, 3)), RNG.random((3,))
    tx = nt.asarray(x.copy(), names=("N", "C")).with_grad()
    tw = nt.asarray(w.copy(), names=("C",)).with_grad()
    assert tx.requires_grad and tx.grad is None
    y = nt.sum(nt.exp(tx * tw) / (1.0 + tx * tx))
    y.backward()
    px, pw = torch_leaf(x), torch_leaf(w)
    torch.sum(torch.exp(px * pw) / (1.0 + px * px)).backward()
    np.testing.assert_allclose(np.asarray(tx.grad), px.grad.numpy(), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(tw.grad), pw.grad.numpy(), rtol=1e-12)
    assert tw.grad.names == ("C",)


def test_no_grad_context_manager():
    t = nt.asarray(RNG.random(3)).with_grad()
    with nt.no_grad():
        assert not (t * 2).requires_grad
    assert (t * 2).requires_grad


@pytest.mark.parametrize("name", ["relu", "gelu", "leaky_relu", "softmax", "log_softmax"])
def test_layers_forward_and_backward(name):
    x = RNG.standard_normal((2, 5))
    t = nt.asarray(x.copy(), names=("N", "CLASS")).with_grad()
    p = torch_leaf(x)
    F = torch.nn.functional
    if name in ("softmax", "log_softmax"):
        got, want = getattr(nt, name)(t, "CLASS"), getattr(F, name)(p, dim=1)
    else:
        got, want = getattr(nt, name)(t), getattr(F, name)(p)
    np.testing.assert_allclose(np.asarray(got), want.detach().numpy(), rtol=1e-10, atol=1e-14)
    nt.sum(got * got).backward()
    torch.sum(want * want).backward()
    np.testing.assert_allclose(np.asarray(t.grad), p.grad.numpy(), rtol=1e-9, atol=1e-14)


def test_losses_match_torch():
    F = torch.nn.functional
    logits, labels = RNG.standard_normal((4, 3, 5)), RNG.integers(0, 3, (4, 5))
    t = nt.asarray(logits.copy(), names=("N", "CLASS", "W")).with_grad()
    p = torch_leaf(logits)
    loss = nt.cross_entropy(t, nt.asarray(labels, names=("N", "W")), "CLASS")
    want = F.cross_entropy(p, torch.tensor(labels))
    np.testing.assert_allclose(float(np.asarray(loss)), want.item(), rtol=1e-12)
    loss.backward()
    want.backward()
    np.testing.assert_allclose(np.asarray(t.grad), p.grad.numpy(), rtol=1e-10, atol=1e-15)
    a, b = RNG.random((3, 4)), RNG.random((3, 4))
    np.testing.assert_allclose(float(np.asarray(nt.mse_loss(a, b))), F.mse_loss(torch.tensor(a), torch.tensor(b)).item())
    np.testing.assert_allclose(float(np.asarray(nt.l1_loss(a, b))), F.l1_loss(torch.tensor(a), torch.tensor(b)).item())
    probs = np.asarray(nt.softmax(nt.asarray(logits, names=("N", "CLASS", "W")), "CLASS"))
    onehot = np.moveaxis(np.eye(3)[labels], -1, 1)
    dice = 1 - np.mean((2 * (probs * onehot).sum((0, 2)) + 1) / (probs.sum((0, 2)) + onehot.sum((0, 2)) + 1))
    got = nt.dice_loss(nt.asarray(probs, names=("N", "CLASS", "W")), nt.asarray(labels, names=("N", "W")), "CLASS")
    np.testing.assert_allclose(float(np.asarray(got)), dice, rtol=1e-12)


@pytest.mark.parametrize("name", ["sgd", "adam", "adamw"])
def test_optimisers_match_torch(name):
    x, target = RNG.random((5, 3)), RNG.random(5)
    w0 = RNG.random(3)
    w = nt.asarray(w0.copy(), names=("C",)).with_grad()
    pw = torch_leaf(w0)
    kw = {"lr": 0.1, "momentum": 0.9} if name == "sgd" else {"lr": 0.05}
    opt = getattr(nt.optim, name)([w], **kw)
    popt = {"sgd": torch.optim.SGD, "adam": torch.optim.Adam, "adamw": torch.optim.AdamW}[name]([pw], **kw)
    tx, px = nt.asarray(x, names=("N", "C")), torch.tensor(x)
    for _ in range(4):
        opt.zero_grad()
        nt.mse_loss(nt.sum(tx * w, "C"), nt.asarray(target, names=("N",))).backward()
        opt.step()
        popt.zero_grad()
        torch.nn.functional.mse_loss((px * pw).sum(1), torch.tensor(target)).backward()
        popt.step()
    np.testing.assert_allclose(np.asarray(w), pw.detach().numpy(), rtol=1e-10)


def test_gradient_errors():
    with pytest.raises(nt.Error) as e:
        nt.asarray(np.arange(3)).with_grad()
    assert e.value.code == "invalid_argument"
    with pytest.raises(nt.Error):
        (nt.asarray(np.ones(3)).with_grad() * 2).backward()   # more than one element


def test_function_transforms_match_torch():
    x, w, v = RNG.random((3, 4)), RNG.random(4), RNG.random((3, 4))
    tx, tw = nt.asarray(x, names=("H", "W")), nt.asarray(w, names=("W",))
    ga, gb = nt.grad(lambda a, b: nt.sum(nt.tanh(a * b)), tx, tw)
    px, pw = torch_leaf(x), torch_leaf(w)
    torch.tanh(px * pw).sum().backward()
    assert ga.names == ("H", "W") and gb.names == ("W",)
    np.testing.assert_allclose(np.asarray(ga), px.grad.numpy(), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(gb), pw.grad.numpy(), rtol=1e-12)
    assert tx.grad is None  # the transforms leave the arguments' own gradients alone

    value, g = nt.value_and_grad(lambda a: nt.sum(a * a), tx)
    assert float(value) == pytest.approx((x * x).sum())
    np.testing.assert_allclose(np.asarray(g), 2 * x, rtol=1e-12)

    # Second derivatives: nt.grad of nt.grad, a Hessian-vector product.
    def cube(b):
        return nt.sum(nt.tanh(b) ** 3)
    tv = nt.asarray(v, names=("H", "W"))
    hvp = nt.grad(lambda a: nt.sum(nt.grad(cube, a) * tv), tx)
    want = torch.autograd.functional.hvp(lambda b: (torch.tanh(b) ** 3).sum(), torch.tensor(x), torch.tensor(v))[1]
    np.testing.assert_allclose(np.asarray(hvp), want.numpy(), rtol=1e-10)

    def f(a):
        return nt.tanh(a) * 2.0
    np.testing.assert_allclose(np.asarray(nt.vjp(f, tx, tv)),
                               torch.autograd.functional.vjp(lambda b: torch.tanh(b) * 2.0, torch.tensor(x),
                                                             torch.tensor(v))[1].numpy(), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(nt.jvp(f, tx, tv)),
                               torch.autograd.functional.jvp(lambda b: torch.tanh(b) * 2.0, torch.tensor(x),
                                                             torch.tensor(v))[1].numpy(), rtol=1e-12)
    with pytest.raises(nt.Error):
        nt.grad(lambda a: a * 2.0, tx)  # not one element
    with pytest.raises(nt.Error):
        nt.grad(lambda a: nt.sum(a), nt.asarray(np.arange(3)))  # integers take no gradient


def test_check_grad_finds_a_right_and_a_wrong_gradient():
    rng = np.random.default_rng(11)
    x = rng.standard_normal((3, 4))
    w = rng.standard_normal(4)
    tx, tw = nt.asarray(x, names=("H", "W")), nt.asarray(w, names=("W",))
    report = nt.check_grad(lambda a, b: nt.sum(nt.tanh(a * b)), tx, tw)
    assert report.ok and bool(report) and report.max_rel_error < 1e-6

    # A function whose recorded gradient is not its derivative: the detached factor
    # makes the analytic gradient of a * a half the numeric one (torch agrees).
    px = torch.tensor(x, requires_grad=True)
    (px * px.detach()).sum().backward()
    assert np.allclose(px.grad.numpy(), x)  # half of 2x
    bad = nt.check_grad(lambda a: nt.sum(a * a.detach()), tx)
    assert not bad.ok and not bool(bad)
    assert bad.max_rel_error > 0.1 and "argument 0" in bad.where
    assert "GradCheckReport(ok=False" in repr(bad)

    loose = nt.check_grad(lambda a: nt.sum(a * a.detach()), tx, eps=1e-4, tolerance=10.0)
    assert loose.ok

    with pytest.raises(nt.Error):
        nt.check_grad(lambda a: a * 2.0, tx)  # not one element
    with pytest.raises(nt.Error):
        nt.check_grad(lambda: nt.zeros((1,)))  # no tensor to check
