-- Drive `urdf-tools lsp` from Neovim's built-in LSP client (0.7: vim.lsp.start_client), headless.
-- Environment: URDF_LSP_FILE (the file to open), URDF_LSP_CODE (the finding code to act on),
-- URDF_LSP_ROOT (the workspace folder), URDF_LSP_PYTHON (the interpreter), URDF_LSP_OUT (where
-- to write the JSON result). Opens the file, waits for the diagnostics, asks the code actions
-- on the first diagnostic of the code, applies the first (the preferred fix if any, else the
-- suppression) to the buffer, and waits for the diagnostics again. The file is never written.
local out = {}
local function finish()
  local stream = io.open(os.getenv('URDF_LSP_OUT'), 'w')
  stream:write(vim.fn.json_encode(out))
  stream:close()
  vim.cmd('qall!')
end

local function of_code(code)
  local found = {}
  for _, item in ipairs(vim.diagnostic.get(0)) do
    if item.code == code then table.insert(found, item) end
  end
  return found
end

local function lines(items)
  local found = {}
  for _, item in ipairs(items) do
    table.insert(found, {line = item.lnum, col = item.col, end_col = item.end_col,
                         code = item.code, message = item.message})
  end
  return found
end

local ok, err = pcall(function()
  local code = os.getenv('URDF_LSP_CODE')
  vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('URDF_LSP_FILE')))
  local client = vim.lsp.start_client({
    name = 'urdf-tools',
    cmd = {os.getenv('URDF_LSP_PYTHON'), '-m', 'urdf_tools_ros.cli.main', 'lsp'},
    root_dir = os.getenv('URDF_LSP_ROOT'),
  })
  vim.lsp.buf_attach_client(0, client)
  out.attached = vim.wait(60000, function() return #of_code(code) > 0 end, 50)
  out.before = lines(vim.diagnostic.get(0))
  local target = of_code(code)[1]
  if target == nil then return end
  vim.api.nvim_win_set_cursor(0, {target.lnum + 1, target.col})
  local params = vim.lsp.util.make_range_params()
  -- as vim.lsp.buf.code_action() does: the line's diagnostics in the LSP's form
  params.context = {diagnostics = vim.lsp.diagnostic.get_line_diagnostics(0, target.lnum)}
  local responses = vim.lsp.buf_request_sync(0, 'textDocument/codeAction', params, 30000)
  local actions = {}
  for _, response in pairs(responses or {}) do
    for _, action in ipairs(response.result or {}) do table.insert(actions, action) end
  end
  out.titles = {}
  for _, action in ipairs(actions) do table.insert(out.titles, action.title) end
  if #actions == 0 then return end
  vim.lsp.util.apply_workspace_edit(actions[1].edit, 'utf-16')
  out.applied = actions[1].title
  local count = #of_code(code)
  out.cleared = vim.wait(60000, function() return #of_code(code) < count end, 50)
  out.after = lines(vim.diagnostic.get(0))
  out.modified = vim.bo.modified
end)
if not ok then out.error = tostring(err) end
finish()
