"""Where queries sit on the block grid, for full prefill, chunked prefill and decode alike.

Blocks are cut on absolute positions (block j holds tokens j*B .. j*B+B-1), so a query
block means the same thing whether the prompt arrives at once or in chunks. Queries
that do not start on a block boundary are padded at the front (and the last block
at the back) so every query block is a full [B] row; outputs of padding are dropped.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch


@dataclass(frozen=True)
class QueryLayout:
    q_len: int  # queries in this forward pass
    kv_len: int  # keys in the cache, these queries' own included
    block_size: int

    @property
    def q_offset(self) -> int:
        """Absolute position of the first query: the cache holds everything before it."""
        return self.kv_len - self.q_len

    @property
    def first_block(self) -> int:
        return self.q_offset // self.block_size

    @property
    def front_pad(self) -> int:
        return self.q_offset - self.first_block * self.block_size

    @property
    def n_q_blocks(self) -> int:
        return -(-(self.front_pad + self.q_len) // self.block_size)

    @property
    def back_pad(self) -> int:
        return self.n_q_blocks * self.block_size - self.front_pad - self.q_len

    @property
    def n_k_blocks(self) -> int:
        return -(-self.kv_len // self.block_size)

    def q_blocks(self, device) -> torch.Tensor:
        """Absolute block id of each padded query block: [NQB]."""
        return torch.arange(self.first_block, self.first_block + self.n_q_blocks, device=device)

    def q_positions(self, device) -> torch.Tensor:
        """Absolute position of each padded query slot: [NQB, B]."""
        start = self.first_block * self.block_size
        n = self.n_q_blocks * self.block_size
        return torch.arange(start, start + n, device=device).view(self.n_q_blocks, self.block_size)

    def real_queries(self, device) -> torch.Tensor:
        """True where a padded query slot holds a real query: [NQB, B]."""
        pos = self.q_positions(device)
        return (pos >= self.q_offset) & (pos < self.kv_len)

    def pad(self, q: torch.Tensor) -> torch.Tensor:
        """q: [B, H, Tq, D] -> [B, H, NQB, BLOCK, D], padding slots zero."""
        b, h, _, d = q.shape
        padded = torch.nn.functional.pad(q, (0, 0, self.front_pad, self.back_pad))
        return padded.view(b, h, self.n_q_blocks, self.block_size, d)

    def unpad(self, out: torch.Tensor) -> torch.Tensor:
        """out: [B, H, NQB, BLOCK, D] -> [B, H, Tq, D]."""
        b, h, _, _, d = out.shape
        flat = out.reshape(b, h, self.n_q_blocks * self.block_size, d)
        return flat[:, :, self.front_pad : self.front_pad + self.q_len]
