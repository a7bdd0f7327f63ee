"""Tools: specs, the registry, argument checking, the workspace sandbox, approvals, built-ins.

Import the submodules directly (`core.tools.spec`, `core.tools.registry`, ...); this package
file stays empty so that importing a light module (a spec) never pulls in a heavy one.
"""
