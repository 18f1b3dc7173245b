"""Bridges between rummykit and other game engines (pure Python: no foreign engine is imported here).

* :mod:`rummykit.interop.openspiel_gin`: OpenSpiel's ``gin_rummy`` action ids, deals and histories.
"""
