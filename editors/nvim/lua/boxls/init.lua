-- boxls for Neovim 0.11+: the language server for `.box` maze files (Pushing Boxes).
--
--   require('boxls').setup()                       -- defaults: `boxls lsp` from PATH
--   require('boxls').setup({ cmd = '/path/to/boxls' })
--   require('boxls').setup({
--     cmd = { 'boxls', 'lsp' },
--     settings = { boxls = { solve = { timeoutMs = 30000 }, deadSquares = { enable = false } } },
--     inlay_hints = false,                         -- do not turn inlay hints on at attach
--   })
--
-- Any other `vim.lsp.Config` field (root_markers, capabilities, on_attach, ...) is passed
-- to `vim.lsp.config('boxls', ...)`, merged over `lsp/boxls.lua`.
local M = {}

--- Title of the server's code action that writes a maze's optimal solution line.
M.SOLVE_TITLE = 'Insert optimal solution'
--- Title of the server's source action that writes every maze's solution line.
M.SOLVE_ALL_TITLE = 'Insert all optimal solutions'

---@class boxls.Opts: vim.lsp.Config
---@field cmd? string|string[]|fun(dispatchers: vim.lsp.rpc.Dispatchers): vim.lsp.rpc.PublicClient A path to the executable, or the full command
---@field inlay_hints? boolean Enable inlay hints when boxls attaches (default true)

---@param opts? boxls.Opts
function M.setup(opts)
  if vim.fn.has('nvim-0.11') == 0 then
    vim.notify('boxls: Neovim 0.11 or newer is required', vim.log.levels.ERROR)
    return
  end
  opts = vim.deepcopy(opts or {})
  if opts.inlay_hints ~= nil then
    vim.g.boxls_inlay_hints = opts.inlay_hints
    opts.inlay_hints = nil
  end
  if type(opts.cmd) == 'string' then
    opts.cmd = { opts.cmd, 'lsp' }
  end
  if next(opts) ~= nil then
    vim.lsp.config('boxls', opts)
  end
  vim.lsp.enable('boxls')
end

--- The boxls client attached to `bufnr`, if any.
---@param bufnr? integer
---@return vim.lsp.Client?
function M.client(bufnr)
  return vim.lsp.get_clients({ bufnr = bufnr or 0, name = 'boxls' })[1]
end

--- Runs the boxls code action titled `title` at the cursor, without a prompt.
---@param title string
---@param only? string[] code action kinds to request (for source actions)
function M.run_action(title, only)
  if not M.client(0) then
    vim.notify('boxls: the language server is not attached to this buffer', vim.log.levels.WARN)
    return
  end
  local taken = false
  vim.lsp.buf.code_action({
    context = only and { only = only, diagnostics = {} } or nil,
    -- Keep only the first action with this exact title, so that `apply` needs no choice.
    filter = function(action)
      if taken or action.title ~= title then
        return false
      end
      taken = true
      return true
    end,
    apply = true,
  })
end

--- Writes (or replaces) the `; solution:` line of the maze under the cursor.
function M.solve()
  M.run_action(M.SOLVE_TITLE)
end

--- Writes (or replaces) the `; solution:` line of every maze in the buffer.
function M.solve_all()
  M.run_action(M.SOLVE_ALL_TITLE, { 'source' })
end

return M
