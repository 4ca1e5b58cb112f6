-- boxls: inlay hints and diagnostic messages on attach, and default highlights for the
-- cells (syntax and the server's semantic tokens). The server configuration is in
-- lsp/boxls.lua; filetype detection in ftdetect/box.lua and ftdetect/sokoban.lua; the buffer-local commands and
-- options of `.box` buffers in ftplugin/box.lua.
if vim.g.loaded_boxls then
  return
end
vim.g.loaded_boxls = true

local group = vim.api.nvim_create_augroup('boxls', { clear = true })

vim.api.nvim_create_autocmd('LspAttach', {
  group = group,
  desc = 'boxls: enable inlay hints, show diagnostic messages',
  callback = function(args)
    local client = vim.lsp.get_client_by_id(args.data.client_id)
    if not client or client.name ~= 'boxls' then
      return
    end
    if vim.g.boxls_inlay_hints ~= false and client:supports_method('textDocument/inlayHint', args.buf) then
      vim.lsp.inlay_hint.enable(true, { bufnr = args.buf })
    end
    -- Neovim 0.11 shows diagnostics as a sign only; a maze's problem is worth reading
    -- where it is. This applies to boxls' own namespace, not to other servers.
    -- Both namespaces: pushed diagnostics, and pulled ones (textDocument/diagnostic).
    local opts = require('boxls').diagnostic_opts()
    if opts then
      for _, pull in ipairs({ false, true }) do
        vim.diagnostic.config(opts, vim.lsp.diagnostic.get_namespace(client.id, pull))
      end
    end
  end,
})

-- Cells: the player, the box and the target in three distinct bold colours, dead squares
-- on a shaded background (which keeps the cell's own colour), in 256-colour terminals
-- (cterm) and with 'termguicolors' alike, for dark and light backgrounds. Rock and free
-- are for :BoxPlay's board (in the buffer they keep the colorscheme's colours), and so
-- are the difficulty map's nine shades, cool to hot (BoxlsMap1 … BoxlsMap9, black digits),
-- and its unsolvable mark.
local map_shades = {
  dark = { 30, '#008787', 36, '#00af87', 70, '#5faf00', 106, '#87af00', 142, '#afaf00', 178, '#d7af00', 172, '#d78700', 166, '#d75f00', 160, '#d70000' },
  light = { 116, '#87d7d7', 115, '#87d7af', 150, '#afd787', 186, '#d7d787', 222, '#ffd787', 216, '#ffaf87', 210, '#ff8787', 204, '#ff5f87', 197, '#ff005f' },
}
local palette = {
  dark = {
    BoxlsPlayer = { ctermfg = 39, fg = '#00afff', bold = true },
    BoxlsBox = { ctermfg = 214, fg = '#ffaf00', bold = true },
    BoxlsTarget = { ctermfg = 42, fg = '#00d787', bold = true },
    BoxlsDead = { ctermbg = 52, bg = '#5f0000' },
    BoxlsRock = { ctermfg = 244, fg = '#808080' },
    BoxlsFree = { ctermfg = 240, fg = '#585858' },
    BoxlsMapUnsolvable = { ctermfg = 203, fg = '#ff5f5f', bold = true },
  },
  light = {
    BoxlsPlayer = { ctermfg = 25, fg = '#005faf', bold = true },
    BoxlsBox = { ctermfg = 130, fg = '#af5f00', bold = true },
    BoxlsTarget = { ctermfg = 28, fg = '#008700', bold = true },
    BoxlsDead = { ctermbg = 224, bg = '#ffd7d7' },
    BoxlsRock = { ctermfg = 244, fg = '#808080' },
    BoxlsFree = { ctermfg = 250, fg = '#bcbcbc' },
    BoxlsMapUnsolvable = { ctermfg = 160, fg = '#d70000', bold = true },
  },
}
for background, shades in pairs(map_shades) do
  for level = 1, #shades / 2 do
    palette[background]['BoxlsMap' .. level] = { ctermfg = 16, fg = '#000000', ctermbg = shades[2 * level - 1], bg = shades[2 * level], bold = true }
  end
end

-- Semantic tokens: each of the server's token types and modifiers (checked against
-- `boxls lsp --print-schema` by test/e2e.lua) linked to a group. `default = true` lets
-- a colorscheme or the user override any of them.
local links = {}
local boxls = require('boxls')
for _, filetype in ipairs({ 'box', 'sokoban' }) do
  for type, group in pairs(boxls.TOKEN_TYPES) do
    links['@lsp.type.' .. type .. '.' .. filetype] = group
  end
  for modifier, by_type in pairs(boxls.TOKEN_MODIFIERS) do
    for type, group in pairs(by_type) do
      links['@lsp.typemod.' .. type .. '.' .. modifier .. '.' .. filetype] = group
    end
  end
end

local function set_highlights()
  for name, hl in pairs(palette[vim.o.background] or palette.dark) do
    vim.api.nvim_set_hl(0, name, vim.tbl_extend('force', hl, { default = true }))
  end
  for from, to in pairs(links) do
    vim.api.nvim_set_hl(0, from, { link = to, default = true })
  end
end
set_highlights()
vim.api.nvim_create_autocmd('ColorScheme', { group = group, callback = set_highlights })
vim.api.nvim_create_autocmd('OptionSet', {
  group = group,
  pattern = 'background',
  callback = function()
    -- Only the palette's own groups follow the background; a user's or a colorscheme's
    -- definition (not `default`) stays.
    for name in pairs(palette.dark) do
      local current = vim.api.nvim_get_hl(0, { name = name })
      local ours = palette[vim.v.option_old] or palette.dark
      if current.ctermfg == ours[name].ctermfg and current.ctermbg == ours[name].ctermbg then
        vim.api.nvim_set_hl(0, name, {})
      end
    end
    set_highlights()
  end,
})
