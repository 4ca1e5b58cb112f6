-- `*.box` files are Pushing Boxes mazes.
vim.filetype.add({ extension = { box = 'box' } })
