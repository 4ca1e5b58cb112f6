-- Pushing Boxes maze files: `;` line comments.
vim.bo.commentstring = '; %s'
vim.bo.comments = ':;'
-- Rows must keep their exact width: no automatic wrapping or tab expansion surprises.
vim.bo.textwidth = 0
vim.b.undo_ftplugin = (vim.b.undo_ftplugin and (vim.b.undo_ftplugin .. ' | ') or '')
  .. 'setlocal commentstring< comments< textwidth<'
