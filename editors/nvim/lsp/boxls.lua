-- Configuration of the boxls language server for `vim.lsp.config` / `vim.lsp.enable`
-- (Neovim 0.11+). Override any field with `vim.lsp.config('boxls', { ... })` or
-- `require('boxls').setup({ ... })`.
---@type vim.lsp.Config
return {
  cmd = { 'boxls', 'lsp' },
  filetypes = { 'box' },
  -- Mazes are standalone files: without a marker the server runs in single-file mode.
  root_markers = { '.git' },
  -- Answered to the server's `workspace/configuration` requests (section `boxls`).
  settings = {
    boxls = {
      solve = { maxCells = 4000000, timeoutMs = 10000 },
      inlayHints = { enable = true },
      deadSquares = { enable = true },
    },
  },
}
