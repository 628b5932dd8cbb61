"""The lint checks, one module per check; ``toolpolicy.lint.registry`` lists them by code.

Each module has ``CODE`` (its stable finding code; the loader check also has ``CODES``),
``SEVERITY``, and ``check(target)`` yielding ``Hit`` values. Its docstring, with a failing
and a passing example, is the check's user documentation; the SARIF output carries it as
each rule's description.
"""
