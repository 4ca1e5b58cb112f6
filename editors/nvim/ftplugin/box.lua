-- Pushing Boxes maze files: `;` line comments, mazes drawn as they are, and the boxls
-- commands for this buffer.
vim.bo.commentstring = '; %s'
vim.bo.comments = ':;'
-- Rows must keep their exact width: no automatic wrapping.
vim.bo.textwidth = 0
-- A maze is a picture: never wrap a row; keep the sign column so that a diagnostic's
-- sign does not shift the whole maze sideways when it comes and goes.
vim.opt_local.wrap = false
vim.opt_local.signcolumn = 'yes'

local commands = {
  BoxSolve = {
    function()
      require('boxls').solve()
    end,
    'boxls: write the optimal solution of the maze under the cursor',
  },
  BoxSolveAll = {
    function()
      require('boxls').solve_all()
    end,
    'boxls: write the optimal solution of every maze',
  },
  BoxPlay = {
    function()
      require('boxls.play').open()
    end,
    'boxls: play the optimal solution of the maze under the cursor in a floating window',
  },
  -- `:BoxHardest keep` or `:BoxHardest!`: the target stays where it is.
  BoxHardest = {
    function(args)
      if args.args ~= '' and args.args ~= 'keep' then
        return vim.notify('boxls: :BoxHardest takes no argument but `keep` (or a bang): ' .. args.args, vim.log.levels.ERROR)
      end
      require('boxls.hardest').run(args.bang or args.args == 'keep')
    end,
    'boxls: move S, B and T of the maze under the cursor to its hardest placement (keep: the target stays)',
    { bang = true, nargs = '?', complete = function()
      return { 'keep' }
    end },
  },
}
local undo = { 'setlocal commentstring< comments< textwidth< wrap< signcolumn<' }
for name, command in pairs(commands) do
  vim.api.nvim_buf_create_user_command(0, name, command[1], vim.tbl_extend('force', { desc = command[2] }, command[3] or {}))
  undo[#undo + 1] = 'silent! delcommand -buffer ' .. name
end
vim.b.undo_ftplugin = (vim.b.undo_ftplugin and (vim.b.undo_ftplugin .. ' | ') or '')
  .. table.concat(undo, ' | ')
