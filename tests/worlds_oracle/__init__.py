"""The reference sampler of worlds, in Python over the reference engine: what a seat knows
(`infoset`) and worlds drawn by rejection from it (`sampler`). The kernel's sampler
(`rulesdsl.play.kernel.worlds`) is tested against it; its own tests
(agreement/test_search_sampler.py) hold it to an exhaustive enumeration of worlds."""
