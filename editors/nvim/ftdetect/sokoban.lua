-- `*.xsb` and `*.sok` files are Sokoban levels (boxls reads them as languageId `sokoban`).
vim.filetype.add({ extension = { xsb = 'sokoban', sok = 'sokoban' } })
