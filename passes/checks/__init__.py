"""The passes that only read the module and report: `check-addr-spaces`, `mem-checks`,
`check-tokens` and `check-barrier-divergence` (gpu-pipeline runs them; each is also a pass of its
own)."""
