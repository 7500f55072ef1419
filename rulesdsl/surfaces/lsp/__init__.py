"""The profile language server (`rulesdsl lsp`): checking, completion, hover, definitions,
formatting, code actions and symbols for profiles in an editor. Only `server` and what it
alone imports (`guard`, `params`, `documents`) need pygls."""
