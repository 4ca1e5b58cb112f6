-- boxls: commands, inlay hints on attach, and default highlights for the server's
-- semantic tokens. The server configuration is in lsp/boxls.lua; filetype detection
-- in ftdetect/box.lua.
if vim.g.loaded_boxls then
  return
end
vim.g.loaded_boxls = true

local group = vim.api.nvim_create_augroup('boxls', { clear = true })

vim.api.nvim_create_autocmd('LspAttach', {
  group = group,
  desc = 'boxls: enable inlay hints',
  callback = function(args)
    local client = vim.lsp.get_client_by_id(args.data.client_id)
    if not client or client.name ~= 'boxls' then
      return
    end
    if vim.g.boxls_inlay_hints ~= false and client:supports_method('textDocument/inlayHint', args.buf) then
      vim.lsp.inlay_hint.enable(true, { bufnr = args.buf })
    end
  end,
})

-- Semantic token legend of boxls: rock free player box target number comment walk push,
-- modifier dead. `default = true` lets a colorscheme override any of them.
local links = {
  ['@lsp.type.rock.box'] = '@keyword',
  ['@lsp.type.free.box'] = '@punctuation.delimiter',
  ['@lsp.type.player.box'] = '@variable',
  ['@lsp.type.box.box'] = '@type',
  ['@lsp.type.target.box'] = '@string',
  ['@lsp.type.number.box'] = '@number',
  ['@lsp.type.comment.box'] = '@comment',
  ['@lsp.type.walk.box'] = '@function',
  ['@lsp.type.push.box'] = '@keyword.return',
  -- Dead squares (the player's start can be one too; it keeps its own colour).
  ['@lsp.typemod.free.dead.box'] = 'DiagnosticUnnecessary',
  ['@lsp.typemod.box.dead.box'] = 'DiagnosticUnnecessary',
}
local function set_highlights()
  for from, to in pairs(links) do
    vim.api.nvim_set_hl(0, from, { link = to, default = true })
  end
end
set_highlights()
vim.api.nvim_create_autocmd('ColorScheme', { group = group, callback = set_highlights })

vim.api.nvim_create_user_command('BoxSolve', function()
  require('boxls').solve()
end, { desc = 'boxls: insert the optimal solution of the maze under the cursor' })

vim.api.nvim_create_user_command('BoxSolveAll', function()
  require('boxls').solve_all()
end, { desc = 'boxls: insert the optimal solution of every maze' })
