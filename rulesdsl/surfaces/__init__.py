"""The surfaces: the command line, the language server and the web page, each over the service
layer, and the `rulesdsl` command that assembles them.
"""
