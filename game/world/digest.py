"""`state_digest`: one short string that proves two runs are the same, bit for bit.

Replays, render-rate comparisons and the tests all ask "did these two runs end in exactly the
same state?". Comparing a blake2b digest of the raw bytes answers it without tolerances: one
flipped bit in one velocity, or one extra draw from the random generator, changes it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping

import numpy as np

from game.world.bodies import Array


def state_digest(header: Mapping[str, object], columns: Iterable[tuple[str, Array]]) -> str:
    """Hex blake2b of the header (as sorted JSON) and each column's name, dtype, shape, bytes."""
    digest = hashlib.blake2b(digest_size=32)
    digest.update(json.dumps(header, sort_keys=True).encode())
    for name, array in columns:
        digest.update(f"{name}:{array.dtype.str}:{array.shape}".encode())
        digest.update(np.ascontiguousarray(array).tobytes())
    return digest.hexdigest()
