-- Sokoban level files (`.xsb`, `.sok`): `;` line comments and boards drawn as they are.
-- The maze commands (:BoxSolve, :BoxPlay, :BoxHardest) are for `.box` buffers only.
vim.bo.commentstring = '; %s'
vim.bo.comments = ':;'
vim.bo.textwidth = 0
-- A board is a picture: never wrap a row; the sign column stays so that a diagnostic's
-- sign does not shift the board sideways when it comes and goes.
vim.opt_local.wrap = false
vim.opt_local.signcolumn = 'yes'
vim.b.undo_ftplugin = (vim.b.undo_ftplugin and (vim.b.undo_ftplugin .. ' | ') or '')
  .. 'setlocal commentstring< comments< textwidth< wrap< signcolumn<'
