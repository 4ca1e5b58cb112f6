-- :BoxHardest — the maze under the cursor with its S, B and T moved to the hardest
-- placement of its walls (the most optimal pushes, then moves), its solution line
-- written: the server's `refactor.rewrite.hardest` code action, applied as one undo
-- step. `:BoxHardest keep` (or `:BoxHardest!`) keeps the target where it is.
--
-- Which of the server's two actions keeps the target is read from the action's data
-- (boxls puts it on every such action, with its edit or not) or its command's argument;
-- from the edit itself (whether it writes a `T` anywhere) only for a server that gives
-- neither. What became of the maze, from `boxls/maze` before and after. Never from the
-- titles.
local M = {}

local boxls = require('boxls')

local notify = boxls.notify

local function value(x)
  return x ~= vim.NIL and x or nil
end

--- Whether `action` keeps the target: true, false, or nil if it does not say.
---@param action lsp.CodeAction
---@return boolean?
function M.keeps_target(action)
  local data = value(action.data)
  local command = type(action.command) == 'table' and action.command or nil
  local request = type(data) == 'table' and data
    or (command and type(command.arguments) == 'table' and type(command.arguments[1]) == 'table' and command.arguments[1])
    or nil
  if request and type(request.keepTarget) == 'boolean' then
    return request.keepTarget
  end
  local edit = value(action.edit)
  if type(edit) ~= 'table' then
    return nil
  end
  local edits = {}
  for _, list in pairs(value(edit.changes) or {}) do
    vim.list_extend(edits, list)
  end
  for _, change in ipairs(value(edit.documentChanges) or {}) do
    vim.list_extend(edits, change.edits or {})
  end
  -- The target moves only if a `T` is written somewhere (a cell edit is one letter).
  for _, e in ipairs(edits) do
    if e.newText == 'T' then
      return false
    end
  end
  return true
end

--- The action of `actions` for `keep`: the one that keeps the target or not as asked;
--- for the target moved, else one that keeps it (the hardest placement may leave T
--- where it is, and then both actions are the same edit).
---@param keep boolean
local function picker(keep)
  return function(actions)
    for _, wanted in ipairs(keep and { true } or { false, true }) do
      for _, action in ipairs(actions) do
        if M.keeps_target(action) == wanted then
          return action
        end
      end
    end
  end
end

--- `P pushes · M moves`, or what the state says instead.
---@param state boxls.MazeState
local function counts(state)
  if state.status == 'solved' then
    return boxls.counts(state)
  end
  return state.status == 'unsolvable' and 'unsolvable' or ('not solved (' .. state.status .. ')')
end

--- Makes the maze under the cursor hardest (keeping its target if `keep`) and says what
--- it did: `Maze #3 made hardest: 6 pushes · 28 moves → 31 pushes · 112 moves`. Waits for
--- a maze still being solved; says why when there is nothing to do.
---@param keep boolean
function M.run(keep)
  local made = keep and 'made hardest keeping its target' or 'made hardest'
  boxls.on_solved_maze('; it is made hardest when it is solved', 'no maze under the cursor', function(client, bufnr, before, retry)
    if before.status == 'invalid' then
      return notify(boxls.why_no_solution(bufnr, before), vim.log.levels.WARN)
    end
    local header = { line = before.headerLine, character = 0 }
    boxls.apply_action(client, bufnr, { start = header, ['end'] = header }, boxls.HARDEST_KIND, function(applied, apply_err)
      local edited = vim.lsp.util.buf_versions[bufnr] ~= before.version
      -- The text changed between the requests, or the search behind an action
      -- offered before it was done found nothing to offer: ask again (the server
      -- knows the answer now, and offers the action with its edit or none).
      if (apply_err or (not applied and edited)) and retry() then
        return
      end
      if apply_err then
        return notify(apply_err, vim.log.levels.ERROR)
      end
      if not applied then
        -- What the server's silence can mean, for a maze solvable as it is or not.
        local why = before.status == 'unsolvable' and 'none is solvable' or 'its S, B and T are the hardest already'
        return notify(
          string.format('the server offers no harder placement for Maze #%d (%s): %s, or the maze is too large to search', before.maze, counts(before), why),
          vim.log.levels.WARN
        )
      end
      -- What the maze is now, once the edit is solved.
      boxls.maze_when_solved(client, bufnr, header, function() end, function(after, after_err)
        if after_err or not after then
          return notify(after_err or 'the maze is gone after the edit', vim.log.levels.WARN)
        end
        notify(string.format('Maze #%d %s: %s → %s', after.maze, made, counts(before), counts(after)))
      end)
    end, picker(keep))
  end)
end

return M
