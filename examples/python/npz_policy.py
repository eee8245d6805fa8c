"""A trained MaskablePPO policy without torch: its actor network's weights in an ``.npz`` file and a
numpy-only forward pass that picks the most probable legal action (what sb3-contrib's
``model.predict(obs, action_masks=mask, deterministic=True)`` picks).

    from npz_policy import policy_from_npz
    act = policy_from_npz("examples/python/results/ppo_random_policy.npz")
    action = act(game.observation(seat), game.action_mask(seat).astype(bool))

The file holds the actor path of sb3's ``MlpPolicy`` (observations are flat, so the features
extractor is the identity): the hidden layers of ``mlp_extractor.policy_net`` as ``w0, b0, w1,
b1, ...`` (``w`` shaped ``[out, in]`` as torch's ``Linear`` stores it), then ``action_net`` as
``w_out, b_out``, and ``activation`` (``tanh``, PPO's default, or ``relu``). ``export_npz`` in
``train.py`` (``--export-npz``) and ``export_policy.py`` write it.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Mapping, Tuple

import numpy as np

Policy = Callable[[np.ndarray, np.ndarray], int]

_ACTIVATIONS: Dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "tanh": np.tanh,
    "relu": lambda x: np.maximum(x, 0.0),
}


def layers_of(arrays: Mapping[str, np.ndarray]) -> Tuple[List[Tuple[np.ndarray, np.ndarray]], str]:
    """The hidden layers ``(w, b)`` in order, then the output layer, and the activation's name, read
    from the arrays of a policy file (float32 whatever they are stored as)."""
    activation = str(arrays["activation"])
    if activation not in _ACTIVATIONS:
        raise ValueError(f"unknown activation {activation!r}: expected one of {sorted(_ACTIVATIONS)}")
    layers = []
    i = 0
    while f"w{i}" in arrays:
        layers.append((np.asarray(arrays[f"w{i}"], np.float32), np.asarray(arrays[f"b{i}"], np.float32)))
        i += 1
    layers.append((np.asarray(arrays["w_out"], np.float32), np.asarray(arrays["b_out"], np.float32)))
    return layers, activation


def logits(layers: List[Tuple[np.ndarray, np.ndarray]], activation: str, obs: np.ndarray) -> np.ndarray:
    """The action logits of ``obs`` (one observation or a batch)."""
    f = _ACTIVATIONS[activation]
    x = np.asarray(obs, np.float32)
    for w, b in layers[:-1]:
        x = f(x @ w.T + b)
    w, b = layers[-1]
    return x @ w.T + b


def policy_from_npz(path: Any) -> Policy:
    """``act(obs, mask) -> action``: the legal action (``mask`` true) of the highest logit, the
    lowest such action on a tie (deterministic, as sb3's masked argmax)."""
    with np.load(path) as f:
        layers, activation = layers_of({k: f[k] for k in f.files})

    def act(obs: np.ndarray, mask: np.ndarray) -> int:
        z = logits(layers, activation, obs)
        z = np.where(np.asarray(mask, bool), z, -np.inf)
        return int(np.argmax(z))

    return act


def arrays_of_model(model: Any) -> Dict[str, np.ndarray]:
    """The actor weights of an sb3-contrib ``MaskablePPO`` (``MlpPolicy``) as the arrays of a
    policy file, float32 (needs torch, which the model has)."""
    import torch.nn as nn

    policy = model.policy
    if type(policy.features_extractor).__name__ != "FlattenExtractor":
        raise ValueError(f"only a flat observation is exported, got {type(policy.features_extractor).__name__}")
    modules = list(policy.mlp_extractor.policy_net)
    out: Dict[str, np.ndarray] = {}
    activations = set()
    i = 0
    for m in modules:
        if isinstance(m, nn.Linear):
            out[f"w{i}"] = m.weight.detach().cpu().numpy().astype(np.float32)
            out[f"b{i}"] = m.bias.detach().cpu().numpy().astype(np.float32)
            i += 1
        elif isinstance(m, nn.Tanh):
            activations.add("tanh")
        elif isinstance(m, nn.ReLU):
            activations.add("relu")
        else:
            raise ValueError(f"unexpected layer in policy_net: {m}")
    if len(activations) != 1:
        raise ValueError(f"expected one activation in policy_net, got {sorted(activations)}")
    out["w_out"] = policy.action_net.weight.detach().cpu().numpy().astype(np.float32)
    out["b_out"] = policy.action_net.bias.detach().cpu().numpy().astype(np.float32)
    out["activation"] = np.array(activations.pop())
    return out


def save_npz(path: Any, arrays: Mapping[str, np.ndarray], dtype: Any = np.float32) -> None:
    """Writes a policy file (compressed), its weights as ``dtype`` (float32 or float16)."""
    np.savez_compressed(
        path, **{k: (v.astype(dtype) if v.dtype.kind == "f" else v) for k, v in arrays.items()}
    )
