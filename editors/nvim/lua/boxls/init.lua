-- boxls for Neovim 0.11+: the language server for `.box` maze files (Pushing Boxes).
--
--   require('boxls').setup()                       -- defaults: `boxls lsp` from PATH
--   require('boxls').setup({ cmd = '/path/to/boxls' })
--   require('boxls').setup({
--     cmd = { 'boxls', 'lsp' },
--     settings = { boxls = { solve = { timeoutMs = 30000 }, deadSquares = { enable = false } } },
--     inlay_hints = false,                         -- do not turn inlay hints on at attach
--     diagnostics = false,                         -- keep Neovim's diagnostic display as is
--   })
--
-- Any other `vim.lsp.Config` field (root_markers, capabilities, on_attach, ...) is passed
-- to `vim.lsp.config('boxls', ...)`, merged over `lsp/boxls.lua`.
local M = {}

--- Kind of the server's code action that writes one maze's optimal solution line.
M.SOLVE_KIND = 'refactor.rewrite'
--- Kind of the server's source action that writes every maze's solution line.
M.SOLVE_ALL_KIND = 'source.boxls.insertAllSolutions'
--- Kind of the server's *Make Maze #k hardest* code actions (with the target moved, and
--- kept); a sub-kind of SOLVE_KIND, which :BoxSolve therefore asks for exactly.
M.HARDEST_KIND = 'refactor.rewrite.hardest'

--- The server's semantic token types, each linked to the group it is drawn with
--- (`@lsp.type.<type>.box`). test/e2e.lua checks these against the legend
--- `boxls lsp --print-schema` prints.
M.TOKEN_TYPES = {
  rock = '@keyword',
  free = '@punctuation.delimiter',
  player = 'BoxlsPlayer',
  box = 'BoxlsBox',
  target = 'BoxlsTarget',
  number = '@number',
  comment = '@comment',
  walk = '@function',
  push = '@keyword.return',
}

--- The server's semantic token modifiers: for each, the types it changes the look of
--- (`@lsp.typemod.<type>.<modifier>.box`), checked against the legend too.
M.TOKEN_MODIFIERS = {
  dead = { free = 'BoxlsDead', box = 'BoxlsDead', player = 'BoxlsDead' },
  -- A Sokoban `*`: drawn in the goal's colour, as Sokoban programs draw a placed box.
  onGoal = { box = 'BoxlsTarget' },
}

--- How `vim.diagnostic` shows boxls' diagnostics unless `setup({ diagnostics = ... })`
--- says otherwise: the message at the end of the line, worst first.
M.DIAGNOSTICS = { virtual_text = { spacing = 2 }, severity_sort = true }

---@class boxls.Opts: vim.lsp.Config
---@field cmd? string|string[]|fun(dispatchers: vim.lsp.rpc.Dispatchers): vim.lsp.rpc.PublicClient A path to the executable, or the full command
---@field inlay_hints? boolean Enable inlay hints when boxls attaches (default true)
---@field diagnostics? vim.diagnostic.Opts|false How to show boxls' diagnostics (default M.DIAGNOSTICS; false: as Neovim's global config says)

--- Says `message` as boxls (`boxls: …`), at `level` (information by default).
---@param message string
---@param level? integer
function M.notify(message, level)
  vim.notify('boxls: ' .. message, level or vim.log.levels.INFO)
end
local notify = M.notify

--- The executable the boxls config runs, and why it cannot be run (nil if it can).
---@return string? exe
---@return string? problem
function M.executable_problem()
  local cmd = (vim.lsp.config.boxls or {}).cmd
  if type(cmd) == 'function' then
    return nil, nil -- an in-process or custom transport: nothing to look for
  end
  local exe = type(cmd) == 'table' and cmd[1] or nil
  if not exe then
    return nil, 'the boxls config has no `cmd`'
  end
  if vim.fn.executable(exe) == 0 then
    return exe, string.format('`%s` is not an executable on PATH', exe)
  end
  return exe, nil
end

---@param opts? boxls.Opts
function M.setup(opts)
  if vim.fn.has('nvim-0.11') == 0 then
    notify('Neovim 0.11 or newer is required', vim.log.levels.ERROR)
    return
  end
  opts = vim.deepcopy(opts or {})
  if opts.inlay_hints ~= nil then
    vim.g.boxls_inlay_hints = opts.inlay_hints
    opts.inlay_hints = nil
  end
  if opts.diagnostics ~= nil then
    vim.g.boxls_diagnostics = opts.diagnostics
    opts.diagnostics = nil
  end
  if type(opts.cmd) == 'string' then
    opts.cmd = { opts.cmd, 'lsp' }
  end
  if next(opts) ~= nil then
    vim.lsp.config('boxls', opts)
  end
  local _, problem = M.executable_problem()
  if problem then
    -- Scheduled: said once the screen is up, not as an error in the user's init.lua.
    vim.schedule(function()
      notify(problem .. "; install it or set setup({ cmd = '/path/to/boxls' }); see :checkhealth boxls", vim.log.levels.ERROR)
    end)
  end
  vim.lsp.enable('boxls')
end

--- The diagnostic display options for boxls' namespace, or nil to leave Neovim's.
---@return vim.diagnostic.Opts?
function M.diagnostic_opts()
  local opts = vim.g.boxls_diagnostics
  if opts == false then
    return nil
  end
  return type(opts) == 'table' and opts or M.DIAGNOSTICS
end

--- The boxls client attached to `bufnr`, if any: a stopped client is listed until its
--- exit is handled, and a request to it fails (`Invalid request`), so it does not count.
---@param bufnr? integer
---@return vim.lsp.Client?
function M.client(bufnr)
  for _, client in ipairs(vim.lsp.get_clients({ bufnr = bufnr or 0, name = 'boxls' })) do
    if not client:is_stopped() then
      return client
    end
  end
end

--- The boxls client attached to `bufnr`; nil after telling the user it is not attached
--- (what every command that talks to the server says first).
---@param bufnr integer
---@return vim.lsp.Client?
function M.attached(bufnr)
  local client = M.client(bufnr)
  if not client then
    notify('the language server is not attached to this buffer (see :checkhealth boxls)', vim.log.levels.WARN)
  end
  return client
end

---------------------------------------------------------------------------
-- The mazes as the server knows them: its typed requests (the manual, "Custom requests").
-- What a maze's state means is read from `status` and the fields beside it, never
-- from the server's messages.

---@class boxls.MazeState
---@field version integer document version this describes
---@field maze integer 1-based maze number
---@field headerLine integer 0-based line of its header
---@field lastLine integer 0-based line of its last row
---@field rows integer
---@field cols integer
---@field status 'solved'|'solving'|'unsolvable'|'invalid'|'tooLarge'|'timedOut'|'failed'
---@field reason string? the sentence to show when status is not "solved"
---@field pushes integer?
---@field moves integer?
---@field solution string?
---@field recorded { moves: string, optimal: boolean }?
---@field firstError { range: lsp.Range, code: string, message: string }?

--- Decodes an answer's JSON `null` (vim.NIL) and missing fields alike as nil.
local function value(x)
  return x ~= vim.NIL and x or nil
end

--- `boxls/maze`: the state of the maze at `position` (nil: no maze there).
---@param callback fun(state: boxls.MazeState?, err: string?)
function M.maze(client, bufnr, position, callback)
  local params = { textDocument = vim.lsp.util.make_text_document_params(bufnr), position = position }
  client:request('boxls/maze', params, function(err, state)
    callback(type(state) == 'table' and state or nil, err and err.message)
  end, bufnr)
end

--- `boxls/mazes`: every maze of `bufnr`.
---@param callback fun(result: { version: integer, mazes: boxls.MazeState[] }?, err: string?)
function M.mazes(client, bufnr, callback)
  local params = { textDocument = vim.lsp.util.make_text_document_params(bufnr) }
  client:request('boxls/mazes', params, function(err, result)
    callback(type(result) == 'table' and result or nil, err and err.message)
  end, bufnr)
end

--- `boxls/settled`: answers once the buffer's current version is solved and published.
---@param callback fun(result: { version: integer, published: integer }?, err: string?)
function M.settled(client, bufnr, callback)
  local params = { textDocument = vim.lsp.util.make_text_document_params(bufnr) }
  client:request('boxls/settled', params, function(err, result)
    callback(type(result) == 'table' and result or nil, err and err.message)
  end, bufnr)
end

--- Asks `ask(done)` for a state; while `solving(state)` holds, calls `on_wait(state)`
--- (once) and asks again when the server has settled — no timer, no polling. An edit
--- while waiting makes a new version to wait for; a state still solving for the very
--- version the server said was settled is an error (the server broke its word).
---@param client vim.lsp.Client
---@param bufnr integer
---@param ask fun(done: fun(state: table?, err: string?))
---@param solving fun(state: table): boolean
---@param on_wait fun(state: table)
---@param callback fun(state: table?, err: string?)
function M.when_settled(client, bufnr, ask, solving, on_wait, callback)
  local waited = false
  local settled_version
  local function attempt()
    ask(function(state, err)
      if err or not state or not solving(state) then
        return callback(state, err)
      end
      if settled_version and state.version <= settled_version then
        return callback(nil, string.format('the server settled version %d but still reports it solving', settled_version))
      end
      if not waited then
        waited = true
        on_wait(state)
      end
      M.settled(client, bufnr, function(result, settled_err)
        if settled_err or not result then
          return callback(nil, 'boxls/settled failed: ' .. (settled_err or 'no answer'))
        end
        if not vim.api.nvim_buf_is_valid(bufnr) then
          return
        end
        settled_version = result.version
        attempt()
      end)
    end)
  end
  attempt()
end

--- The state of the maze at `position` once it is no longer being solved.
function M.maze_when_solved(client, bufnr, position, on_wait, callback)
  M.when_settled(client, bufnr, function(done)
    M.maze(client, bufnr, position, done)
  end, function(state)
    return state.status == 'solving'
  end, on_wait, callback)
end

--- The plumbing of a command on the maze under the cursor (`:BoxSolve`, `:BoxPlay`,
--- `:BoxHardest`): the attached client; the cursor's position now, wherever the cursor
--- goes while the maze is solved; meanwhile why it is not solved yet, with `waiting`
--- after it; then `work(client, bufnr, state, retry)` with the solved (or settled) maze,
--- or `no_maze` said when there is none. `retry()` asks again about the new version,
--- at most twice in all, when the text changed between two requests; it returns false
--- once it will not.
---@param waiting string
---@param no_maze string
---@param work fun(client: vim.lsp.Client, bufnr: integer, state: boxls.MazeState, retry: fun(): boolean)
function M.on_solved_maze(waiting, no_maze, work)
  local bufnr = vim.api.nvim_get_current_buf()
  local client = M.attached(bufnr)
  if not client then
    return
  end
  local position = vim.lsp.util.make_position_params(0, client.offset_encoding).position
  local function attempt(tries)
    M.maze_when_solved(client, bufnr, position, function(state)
      notify(M.why_no_solution(bufnr, state) .. waiting)
    end, function(state, err)
      if err or not state then
        return notify(err or no_maze, vim.log.levels.WARN)
      end
      work(client, bufnr, state, function()
        if tries >= 3 then
          return false
        end
        attempt(tries + 1)
        return true
      end)
    end)
  end
  attempt(1)
end

local function plural(n, one, many)
  return string.format('%d %s', n, n == 1 and one or (many or one .. 's'))
end

--- `P pushes · M moves` of a solved maze.
---@param state boxls.MazeState
function M.counts(state)
  return plural(value(state.pushes) or 0, 'push', 'pushes') .. ' · ' .. plural(value(state.moves) or 0, 'move')
end

--- What `status` says about a maze that has no solution to show when the server gives
--- no reason (its `reason` is shown after `Maze #k is`: `unsolvable: …`, `not solved: …`).
local NOT_SOLVED = {
  unsolvable = 'unsolvable',
  tooLarge = 'not solved: too large',
  timedOut = 'not solved: out of time',
  failed = 'not solved',
}

--- Why the maze `state` has no solution to write or play, in words: its status, and
--- the server's reason or first error.
---@param bufnr integer
---@param state boxls.MazeState
---@return string
function M.why_no_solution(bufnr, state)
  local name = (state.format == 'xsb' and 'Level ' or 'Maze #') .. state.maze
  if state.status == 'invalid' then
    -- The errors of the maze's lines (at least the one the server names).
    local errors = #vim.tbl_filter(function(d)
      return d.lnum >= state.headerLine and d.lnum <= state.lastLine
    end, vim.diagnostic.get(bufnr, { severity = vim.diagnostic.severity.ERROR }))
    local first = value(state.firstError)
    errors = math.max(errors, first and 1 or 0)
    return string.format(
      '%s has %s; fix %s first%s',
      name,
      plural(errors, 'error'),
      errors == 1 and 'it' or 'them',
      first and string.format(' (line %d: %s)', first.range.start.line + 1, first.message) or ''
    )
  elseif state.status == 'solved' then
    local recorded = value(state.recorded)
    if recorded and recorded.optimal then
      return string.format('%s already records its optimal solution (%s)', name, M.counts(state))
    end
    return string.format('%s is solved (%s)', name, M.counts(state))
  end
  if state.status == 'solving' then
    return name .. ' is still being solved'
  end
  return string.format('%s is %s', name, value(state.reason) or NOT_SOLVED[state.status] or tostring(state.status))
end

---------------------------------------------------------------------------
-- :BoxSolve and :BoxSolveAll

--- The LSP error code of a request the document changed under (ContentModified).
local CONTENT_MODIFIED = -32801

--- Requests the code actions of `kind` (exactly: not its sub-kinds) at `range` and
--- applies the first one, or the one `pick(actions)` chooses among them, as one undo
--- step. `callback(applied, err)`: err when resolving it failed (`changed`: the
--- document changed meanwhile, worth asking again).
---@param client vim.lsp.Client
---@param bufnr integer
---@param range lsp.Range
---@param kind string
---@param callback fun(applied: boolean, err: string?, changed: boolean?)
---@param pick? fun(actions: lsp.CodeAction[]): lsp.CodeAction?
function M.apply_action(client, bufnr, range, kind, callback, pick)
  local params = {
    textDocument = vim.lsp.util.make_text_document_params(bufnr),
    range = range,
    context = { only = { kind }, diagnostics = {}, triggerKind = 1 },
  }
  client:request('textDocument/codeAction', params, function(err, actions)
    local of_kind = vim.tbl_filter(function(action)
      return action.kind == kind
    end, err == nil and type(actions) == 'table' and actions or {})
    local chosen = (pick or function(list)
      return list[1]
    end)(of_kind)
    if not chosen then
      return callback(false)
    end
    -- A server may leave a costly edit out of the list and fill it in on resolve.
    if not chosen.edit and chosen.data ~= nil and client:supports_method('codeAction/resolve', bufnr) then
      return client:request('codeAction/resolve', chosen, function(resolve_err, resolved)
        if resolve_err or type(resolved) ~= 'table' then
          local message = resolve_err and resolve_err.message or 'no action'
          return callback(false, 'codeAction/resolve failed: ' .. message, resolve_err ~= nil and resolve_err.code == CONTENT_MODIFIED)
        end
        callback(M.apply_code_action(client, bufnr, resolved))
      end, bufnr)
    end
    callback(M.apply_code_action(client, bufnr, chosen))
  end, bufnr)
end

local apply_action = M.apply_action

--- Applies a code action's edit, then runs its command (the LSP order). Returns whether
--- it had anything to do.
---@param client vim.lsp.Client
---@param bufnr integer
---@param action lsp.CodeAction|lsp.Command
function M.apply_code_action(client, bufnr, action)
  -- One undo step of its own: not joined to the change made just before it.
  if vim.api.nvim_buf_is_valid(bufnr) then
    vim.api.nvim_buf_call(bufnr, function()
      vim.cmd('let &undolevels = &undolevels')
    end)
  end
  if action.edit then
    vim.lsp.util.apply_workspace_edit(action.edit, client.offset_encoding)
  end
  -- A bare Command (a client without code action literals) has `command` as a string.
  local command = type(action.command) == 'table' and action.command
    or (type(action.command) == 'string' and action --[[@as lsp.Command]])
    or nil
  if command then
    client:exec_cmd(command, { bufnr = bufnr })
  end
  return action.edit ~= nil or command ~= nil
end

--- The range of a maze's header line (where its code actions are asked for).
---@param state boxls.MazeState
local function header_range(state)
  local at = { line = state.headerLine, character = 0 }
  return { start = at, ['end'] = at }
end

--- Whether a solved maze has a solution line to write: none recorded, or not optimal.
---@param state boxls.MazeState
local function to_write(state)
  local recorded = value(state.recorded)
  return state.status == 'solved' and not (recorded and recorded.optimal)
end

--- Writes (or replaces) the `; solution:` line of the maze under the cursor and says
--- what it wrote. If that maze is still being solved, says so and writes it when the
--- solve is done; otherwise, if there is nothing to write, says why.
function M.solve()
  M.on_solved_maze('; its solution is written when it is found', 'no maze under the cursor', function(client, bufnr, state, retry)
    if not to_write(state) then
      return notify(M.why_no_solution(bufnr, state), state.status == 'solved' and vim.log.levels.INFO or vim.log.levels.WARN)
    end
    apply_action(client, bufnr, header_range(state), M.SOLVE_KIND, function(applied, err)
      if err then
        return notify(err, vim.log.levels.ERROR)
      end
      if applied then
        return notify(string.format('Maze #%d is solved; its solution is written (%s)', state.maze, M.counts(state)))
      end
      -- The text changed between the two requests: ask again about the new version.
      if not retry() then
        notify(string.format('the server offered no solution line for Maze #%d', state.maze), vim.log.levels.WARN)
      end
    end)
  end)
end

--- Writes (or replaces) the `; solution:` line of every solved maze in the buffer and
--- says which; waits for mazes still being solved; or says why there is none to write.
function M.solve_all()
  local bufnr = vim.api.nvim_get_current_buf()
  local client = M.attached(bufnr)
  if not client then
    return
  end
  local range = vim.lsp.util.make_range_params(0, client.offset_encoding).range
  local function solving(mazes)
    return #vim.tbl_filter(function(state)
      return state.status == 'solving'
    end, mazes.mazes)
  end
  M.when_settled(client, bufnr, function(done)
    M.mazes(client, bufnr, done)
  end, function(mazes)
    return solving(mazes) > 0
  end, function(mazes)
    local n = solving(mazes)
    notify(string.format('%s still being solved; the solutions are written when %s found', plural(n, 'maze'), n == 1 and 'it is' or 'they are'))
  end, function(mazes, err)
    if err or not mazes then
      return notify(err or 'boxls/mazes: no answer', vim.log.levels.WARN)
    end
    local written = {}
    local counts, order = {}, { 'already optimal', 'unsolvable', 'with errors', 'not solved' }
    for _, state in ipairs(mazes.mazes) do
      if to_write(state) then
        written[#written + 1] = '#' .. state.maze
      else
        local what = state.status == 'solved' and 'already optimal'
          or state.status == 'unsolvable' and 'unsolvable'
          or state.status == 'invalid' and 'with errors'
          or 'not solved'
        counts[what] = (counts[what] or 0) + 1
      end
    end
    if #written > 0 then
      return apply_action(client, bufnr, range, M.SOLVE_ALL_KIND, function(applied, err)
        if err then
          return notify(err, vim.log.levels.ERROR)
        end
        if applied then
          return notify(string.format('%s written (Maze %s)', plural(#written, 'solution'), table.concat(written, ', ')))
        end
        notify('the server offered no solution lines to write', vim.log.levels.WARN)
      end)
    end
    local parts = {}
    for _, what in ipairs(order) do
      if counts[what] then
        parts[#parts + 1] = string.format('%d %s', counts[what], what)
      end
    end
    notify('no solution to write (' .. (#parts > 0 and table.concat(parts, ', ') or 'no mazes') .. ')', vim.log.levels.WARN)
  end)
end

return M
