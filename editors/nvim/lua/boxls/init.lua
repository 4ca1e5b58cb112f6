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

--- How `vim.diagnostic` shows boxls' diagnostics unless `setup({ diagnostics = ... })`
--- says otherwise: the message at the end of the line, worst first.
M.DIAGNOSTICS = { virtual_text = { spacing = 2 }, severity_sort = true }

---@class boxls.Opts: vim.lsp.Config
---@field cmd? string|string[]|fun(dispatchers: vim.lsp.rpc.Dispatchers): vim.lsp.rpc.PublicClient A path to the executable, or the full command
---@field inlay_hints? boolean Enable inlay hints when boxls attaches (default true)
---@field diagnostics? vim.diagnostic.Opts|false How to show boxls' diagnostics (default M.DIAGNOSTICS; false: as Neovim's global config says)

local function notify(message, level)
  vim.notify('boxls: ' .. message, level or vim.log.levels.INFO)
end

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

--- The boxls client attached to `bufnr`, if any.
---@param bufnr? integer
---@return vim.lsp.Client?
function M.client(bufnr)
  return vim.lsp.get_clients({ bufnr = bufnr or 0, name = 'boxls' })[1]
end

---------------------------------------------------------------------------
-- Which maze is under the cursor, and what became of it.

--- The mazes of `bufnr` as the server sees them: one document symbol each (`name`
--- `Maze #k (r×c)`, `detail` the summary: counts, `unsolvable`, `solving…`,
--- `not solved: …`, or nil for a maze with errors).
---@param client vim.lsp.Client
---@param bufnr integer
---@param callback fun(symbols: lsp.DocumentSymbol[]?, err: string?)
function M.mazes(client, bufnr, callback)
  local params = { textDocument = vim.lsp.util.make_text_document_params(bufnr) }
  client:request('textDocument/documentSymbol', params, function(err, symbols)
    callback(not err and type(symbols) == 'table' and symbols or (not err and {} or nil), err and err.message)
  end, bufnr)
end

--- The maze whose lines contain `lnum` (0-based), or nil if there is none.
---@param client vim.lsp.Client
---@param bufnr integer
---@param lnum integer
---@param callback fun(symbol: lsp.DocumentSymbol?, err: string?)
function M.maze_at(client, bufnr, lnum, callback)
  M.mazes(client, bufnr, function(symbols, err)
    for _, symbol in ipairs(symbols or {}) do
      if symbol.range.start.line <= lnum and lnum <= symbol.range['end'].line then
        return callback(symbol)
      end
    end
    callback(nil, err)
  end)
end

--- The diagnostics of `bufnr` on lines `first..last` (0-based), of `severity` if given.
local function diagnostics_in(bufnr, first, last, severity)
  return vim.tbl_filter(function(d)
    return d.lnum >= first and d.lnum <= last
  end, vim.diagnostic.get(bufnr, { severity = severity }))
end

--- Why the maze `symbol` has no solution to write, in words.
---@param bufnr integer
---@param symbol lsp.DocumentSymbol
---@return string
function M.why_no_solution(bufnr, symbol)
  local name = symbol.name:match('^(Maze #%d+)') or symbol.name
  local first, last = symbol.range.start.line, symbol.range['end'].line
  local detail = symbol.detail
  local function first_message(ds)
    table.sort(ds, function(a, b)
      return a.lnum < b.lnum or (a.lnum == b.lnum and a.col < b.col)
    end)
    local d = ds[1]
    return d and string.format('line %d: %s', d.lnum + 1, d.message) or nil
  end
  if detail == nil then
    local errors = diagnostics_in(bufnr, first, last, vim.diagnostic.severity.ERROR)
    return string.format(
      '%s has %d error%s; fix %s first%s',
      name,
      #errors,
      #errors == 1 and '' or 's',
      #errors == 1 and 'it' or 'them',
      errors[1] and (' (' .. first_message(errors) .. ')') or ''
    )
  elseif detail == 'unsolvable' then
    local why = vim.tbl_filter(function(d)
      return d.code == 'unsolvable'
    end, diagnostics_in(bufnr, first, last))
    local reason = why[1] and why[1].message:gsub('^this maze is unsolvable:%s*', '') or nil
    return string.format('%s is unsolvable%s', name, reason and (': ' .. reason) or '')
  elseif detail:find('^solving') then
    return name .. ' is still being solved'
  elseif detail:find('^not solved') then
    local why = vim.tbl_filter(function(d)
      return d.code == 'too-large' or d.code == 'internal-error'
    end, diagnostics_in(bufnr, first, last))
    return string.format('%s is %s', name, why[1] and why[1].message or detail)
  end
  return string.format('%s already records its optimal solution (%s)', name, detail)
end

---------------------------------------------------------------------------
-- :BoxSolve and :BoxSolveAll

--- Requests the code actions of `kind` at `range` (the cursor's when it was asked) and
--- applies the first one.
---@param client vim.lsp.Client
---@param bufnr integer
---@param range lsp.Range
---@param kind string
---@param callback fun(applied: boolean)
local function apply_action(client, bufnr, range, kind, callback)
  local params = {
    textDocument = vim.lsp.util.make_text_document_params(bufnr),
    range = range,
    context = { only = { kind }, diagnostics = {}, triggerKind = 1 },
  }
  client:request('textDocument/codeAction', params, function(err, actions)
    local chosen
    for _, action in ipairs(err == nil and type(actions) == 'table' and actions or {}) do
      local k = action.kind or ''
      if not chosen and (k == kind or k:sub(1, #kind + 1) == kind .. '.') then
        chosen = action
      end
    end
    if not chosen then
      return callback(false)
    end
    -- A server may leave a costly edit out of the list and fill it in on resolve.
    if not chosen.edit and chosen.data ~= nil and client:supports_method('codeAction/resolve', bufnr) then
      return client:request('codeAction/resolve', chosen, function(resolve_err, resolved)
        if resolve_err or type(resolved) ~= 'table' then
          notify('codeAction/resolve failed: ' .. (resolve_err and resolve_err.message or 'no action'), vim.log.levels.ERROR)
          return callback(false)
        end
        callback(M.apply_code_action(client, bufnr, resolved))
      end, bufnr)
    end
    callback(M.apply_code_action(client, bufnr, chosen))
  end, bufnr)
end

--- Applies a code action's edit, then runs its command (the LSP order). Returns whether
--- it had anything to do.
---@param client vim.lsp.Client
---@param bufnr integer
---@param action lsp.CodeAction|lsp.Command
function M.apply_code_action(client, bufnr, action)
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

--- How long `:BoxSolve` and `:BoxPlay` wait at most for a maze still being solved. The server stops a
--- solve at its time limit (the maze is then "not solved"), so this is only a backstop:
--- three times that limit and a little more.
function M.solve_wait_ms(client)
  local timeout = vim.tbl_get(client.settings or {}, 'boxls', 'solve', 'timeoutMs')
  return 3 * (tonumber(timeout) or 10000) + 5000
end

--- Writes (or replaces) the `; solution:` line of the maze under the cursor. If that maze
--- is still being solved, says so and writes it when the solve is done; otherwise, if
--- there is nothing to write, says why.
function M.solve()
  local bufnr = vim.api.nvim_get_current_buf()
  local client = M.client(bufnr)
  if not client then
    return notify('the language server is not attached to this buffer (see :checkhealth boxls)', vim.log.levels.WARN)
  end
  local lnum = vim.api.nvim_win_get_cursor(0)[1] - 1
  -- Every attempt asks about the maze under the cursor now, wherever the cursor goes next.
  local range = vim.lsp.util.make_range_params(0, client.offset_encoding).range
  local deadline = vim.uv.now() + M.solve_wait_ms(client)
  local waiting = nil ---@type string? the maze waited for
  -- `solved_seen`: the maze was reported solved after an attempt found no action; the
  -- solve may have finished between the two requests, so one more attempt decides.
  local function attempt(solved_seen)
    apply_action(client, bufnr, range, M.SOLVE_KIND, function(applied)
      if applied then
        -- Said in every case, waited for or not: which maze, and what was written.
        return M.maze_at(client, bufnr, lnum, function(symbol)
          local name = waiting or (symbol and symbol.name:match('^(Maze #%d+)')) or 'the maze'
          local detail = symbol and symbol.detail
          notify(name .. ' is solved; its solution is written' .. (detail and (' (' .. detail .. ')') or ''))
        end)
      end
      M.maze_at(client, bufnr, lnum, function(symbol, err)
        if err or not symbol then
          return notify(err or 'no maze under the cursor', vim.log.levels.WARN)
        end
        local solving = (symbol.detail or ''):find('^solving') ~= nil
        if solving and vim.uv.now() < deadline and vim.api.nvim_buf_is_valid(bufnr) then
          if not waiting then
            waiting = symbol.name:match('^(Maze #%d+)') or symbol.name
            notify(M.why_no_solution(bufnr, symbol) .. '; its solution is written when it is found')
          end
          return vim.defer_fn(attempt, 200)
        end
        if not solved_seen and (symbol.detail or ''):find(' push') then
          return attempt(true)
        end
        notify(M.why_no_solution(bufnr, symbol), vim.log.levels.WARN)
      end)
    end)
  end
  attempt()
end

--- Writes (or replaces) the `; solution:` line of every solved maze in the buffer, or
--- says why there is none to write.
function M.solve_all()
  local bufnr = vim.api.nvim_get_current_buf()
  local client = M.client(bufnr)
  if not client then
    return notify('the language server is not attached to this buffer (see :checkhealth boxls)', vim.log.levels.WARN)
  end
  local range = vim.lsp.util.make_range_params(0, client.offset_encoding).range
  apply_action(client, bufnr, range, M.SOLVE_ALL_KIND, function(applied)
    if applied then
      return
    end
    M.mazes(client, bufnr, function(symbols)
      local counts, order = {}, { 'recorded', 'unsolvable', 'with errors', 'not solved', 'still being solved' }
      for _, symbol in ipairs(symbols or {}) do
        local d = symbol.detail
        local what = d == nil and 'with errors'
          or d == 'unsolvable' and 'unsolvable'
          or d:find('^solving') and 'still being solved'
          or d:find('^not solved') and 'not solved'
          or 'recorded'
        counts[what] = (counts[what] or 0) + 1
      end
      local parts = {}
      for _, what in ipairs(order) do
        if counts[what] then
          parts[#parts + 1] = string.format('%d %s', counts[what], what == 'recorded' and 'already optimal' or what)
        end
      end
      notify('no solution to write (' .. (#parts > 0 and table.concat(parts, ', ') or 'no mazes') .. ')', vim.log.levels.WARN)
    end)
  end)
end

return M
