-- Drive `urdf-tools lsp` through the Neovim 0.7 set-up of docs/editors.md (loaded as init.lua),
-- headless. Environment: URDF_LSP_FILES (JSON: two files of one package, then a file of another
-- package), URDF_LSP_COUNTS (JSON: how many diagnostics each of the two gets), URDF_LSP_CODE
-- (the finding code to act on in the first), URDF_LSP_OUT (where to write the JSON result).
-- Opens the two files, waits for their diagnostics, notes the clients; asks the code actions
-- on the first diagnostic of the code, applies the first (the preferred fix if any, else the
-- suppression) to the buffer, waits for the diagnostics again; opens the third file and notes
-- the clients again. No file is written.
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

local function lines(buf)
  local found = {}
  for _, item in ipairs(vim.diagnostic.get(buf)) do
    table.insert(found, {line = item.lnum, col = item.col, end_col = item.end_col,
                         code = item.code, message = item.message})
  end
  return found
end

local function clients(buffers)  -- every client with its root and the buffers attached to it
  local found = {}
  for _, client in pairs(vim.lsp.get_active_clients()) do
    local attached = {}
    for index, buf in ipairs(buffers) do
      if vim.lsp.buf_is_attached(buf, client.id) then table.insert(attached, index) end
    end
    table.insert(found, {root = client.config.root_dir, buffers = attached})
  end
  return found
end

local ok, err = pcall(function()
  local files = vim.fn.json_decode(os.getenv('URDF_LSP_FILES'))
  local counts = vim.fn.json_decode(os.getenv('URDF_LSP_COUNTS'))
  local code = os.getenv('URDF_LSP_CODE')
  local buffers = {}
  for index = 1, 2 do
    vim.cmd('edit ' .. vim.fn.fnameescape(files[index]))
    buffers[index] = vim.api.nvim_get_current_buf()
  end
  out.attached = vim.wait(60000, function()
    return #vim.diagnostic.get(buffers[1]) >= counts[1]
      and #vim.diagnostic.get(buffers[2]) >= counts[2]
  end, 50)
  vim.wait(1000, function() return false end, 50)  -- a second server's would come now
  out.diagnostics = {lines(buffers[1]), lines(buffers[2])}
  out.clients = clients(buffers)
  vim.cmd('buffer ' .. buffers[1])
  local target = of_code(code)[1]
  if target == nil then return end
  out.before = lines(0)
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
  out.after = lines(0)
  out.modified = vim.bo.modified
  vim.cmd('edit ' .. vim.fn.fnameescape(files[3]))
  buffers[3] = vim.api.nvim_get_current_buf()
  out.other = vim.wait(60000, function() return #vim.diagnostic.get(buffers[3]) > 0 end, 50)
  out.clients_after = clients(buffers)
end)
if not ok then out.error = tostring(err) end
finish()
