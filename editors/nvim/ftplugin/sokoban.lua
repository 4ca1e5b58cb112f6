-- Sokoban level files (`.xsb`, `.sok`): `;` line comments and boards drawn as they are.
-- :BoxPlay plays the level under the cursor; the other maze commands (:BoxSolve,
-- :BoxHardest) are for `.box` buffers only.
vim.bo.commentstring = '; %s'
vim.bo.comments = ':;'
vim.bo.textwidth = 0
-- A board is a picture: never wrap a row; the sign column stays so that a diagnostic's
-- sign does not shift the board sideways when it comes and goes.
vim.opt_local.wrap = false
vim.opt_local.signcolumn = 'yes'
vim.api.nvim_buf_create_user_command(0, 'BoxPlay', function()
  require('boxls.play').open()
end, { desc = 'boxls: play the solution of the level under the cursor in a floating window' })
vim.b.undo_ftplugin = (vim.b.undo_ftplugin and (vim.b.undo_ftplugin .. ' | ') or '')
  .. 'setlocal commentstring< comments< textwidth< wrap< signcolumn< | silent! delcommand -buffer BoxPlay'
