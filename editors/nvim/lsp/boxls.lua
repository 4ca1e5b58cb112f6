-- Configuration of the boxls language server for `vim.lsp.config` / `vim.lsp.enable`
-- (Neovim 0.11+). Override any field with `vim.lsp.config('boxls', { ... })` or
-- `require('boxls').setup({ ... })`.
---@type vim.lsp.Config
return {
  cmd = { 'boxls', 'lsp' },
  filetypes = { 'box' },
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
    },
  },
}
