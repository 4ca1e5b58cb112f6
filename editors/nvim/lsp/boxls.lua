-- Configuration of the boxls language server for `vim.lsp.config` / `vim.lsp.enable`
-- (Neovim 0.11+). Override any field with `vim.lsp.config('boxls', { ... })` or
-- `require('boxls').setup({ ... })`.

--- `boxls` on PATH, else the binary shipped beside this plugin: the release archive puts
--- it at `bin/boxls` next to the plugin's `nvim/` folder (found through a symlinked
--- native package too), or a user may copy it into the plugin's own `bin/`.
local function boxls_executable()
  if vim.fn.executable('boxls') == 1 then
    return 'boxls'
  end
  local this = debug.getinfo(1, 'S').source:gsub('^@', '')
  local root = vim.fs.dirname(vim.fs.dirname(vim.uv.fs_realpath(this) or this))
  local name = vim.fn.has('win32') == 1 and 'boxls.exe' or 'boxls'
  for _, dir in ipairs({ root .. '/../bin', root .. '/bin' }) do
    local exe = vim.fs.normalize(dir .. '/' .. name)
    if vim.fn.executable(exe) == 1 then
      return exe
    end
  end
  return 'boxls'
end

---@type vim.lsp.Config
return {
  cmd = { boxls_executable(), 'lsp' },
  -- Sokoban levels too: Neovim sends the filetype as the languageId, `sokoban`.
  filetypes = { 'box', 'sokoban' },
  -- Mazes are standalone files: without a marker the server runs in single-file mode.
  root_markers = { '.git' },
  -- The server reads `settings.boxls` from initializationOptions at startup (so the first
  -- solves already use it), then through `workspace/configuration`.
  before_init = function(params, config)
    if params.initializationOptions == nil then
      params.initializationOptions = vim.tbl_get(config, 'settings', 'boxls')
    end
  end,
  -- Hints that turn from `solving…` into counts are drawn again (see lua/boxls/hints.lua).
  handlers = {
    ['textDocument/inlayHint'] = function(...)
      return require('boxls.hints').on_inlayhint(...)
    end,
  },
  -- Answered to the server's `workspace/configuration` requests (section `boxls`): every
  -- server setting with its default (test/e2e.lua checks them against
  -- `boxls lsp --print-schema`).
  settings = {
    boxls = {
      solve = { maxCells = 4000000, timeoutMs = 10000 },
      inlayHints = { enable = true },
      deadSquares = { enable = true },
      sokoban = { timeLimit = 10 },
    },
  },
}
