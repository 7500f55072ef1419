-- Headless Neovim as a user of rulesdsl lsp, configured as docs/editors.md says: open the
-- profile, wait for the server's diagnostics, apply its quick fix, write the file, wait for
-- the diagnostics again, and write what happened as JSON. Reads RULESDSL_PROFILE and
-- RULESDSL_REPORT.
local profile = os.getenv("RULESDSL_PROFILE")
local report = os.getenv("RULESDSL_REPORT")
local WAIT = 30000

local function shown(diagnostics)
  local found = {}
  for _, d in ipairs(diagnostics) do
    local lsp = (d.user_data or {}).lsp or {}
    table.insert(found, {
      code = lsp.code or d.code,
      severity = d.severity,
      range = { d.lnum, d.col, d.end_lnum, d.end_col },
    })
  end
  return found
end

local function run()
  vim.cmd("edit " .. vim.fn.fnameescape(profile))
  local buf = vim.api.nvim_get_current_buf()
  local syntax = vim.fn.synIDattr(vim.fn.synID(1, 1, 1), "name")
  vim.wait(WAIT, function() return #vim.diagnostic.get(buf) > 0 end, 10)
  local before = vim.diagnostic.get(buf)
  local first = before[1]
  local params = {
    textDocument = vim.lsp.util.make_text_document_params(buf),
    range = {
      start = { line = first.lnum, character = first.col },
      ["end"] = { line = first.end_lnum, character = first.end_col },
    },
    context = { diagnostics = {} },
  }
  local applied = nil
  local answers = vim.lsp.buf_request_sync(buf, "textDocument/codeAction", params, WAIT) or {}
  for _, answer in pairs(answers) do
    for _, action in ipairs(answer.result or {}) do
      if applied == nil and action.kind == "quickfix" then
        vim.lsp.util.apply_workspace_edit(action.edit, "utf-16")
        applied = action.title
      end
    end
  end
  vim.cmd("write")
  vim.wait(WAIT, function() return #vim.diagnostic.get(buf) == 0 end, 10)
  return {
    filetype = vim.bo[buf].filetype,
    syntax = syntax,
    before = shown(before),
    applied = applied,
    after = shown(vim.diagnostic.get(buf)),
  }
end

local ok, result = pcall(run)
if not ok then
  result = { error = tostring(result) }
end
vim.fn.writefile({ vim.fn.json_encode(result) }, report)
vim.cmd("qall!")
