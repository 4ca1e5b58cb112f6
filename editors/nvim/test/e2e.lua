-- Headless end-to-end test of the boxls Neovim plugin against the real server.
--
-- Run from the repository root with `boxls` first on PATH (.ci/editors does this):
--   nvim --headless --clean --cmd 'set rtp^=editors/nvim' -c 'luafile editors/nvim/test/e2e.lua'
--
-- It prints what it observes, one check per line, then `nvim-e2e: N passed, M failed`,
-- and exits non-zero on any failure.

local TIMEOUT = tonumber(vim.env.BOXLS_E2E_TIMEOUT_MS) or 20000
local root = vim.fn.getcwd()
local here = root .. '/editors/nvim/test'

local harness = dofile(here .. '/harness.lua').new('nvim-e2e')
local log, check = harness.log, harness.check

local function finish()
  vim.cmd(harness.summary() and 'qall!' or 'cquit 1')
end

-- A watchdog: whatever hangs, the test still ends.
vim.defer_fn(function()
  check(false, string.format('the whole test ends within %d ms', 6 * TIMEOUT))
  finish()
end, 6 * TIMEOUT)

local function wait_for(pred, ms)
  return vim.wait(ms or TIMEOUT, pred, 50)
end

local function copy(src, dst)
  vim.fn.writefile(vim.fn.readfile(src, 'b'), dst, 'b')
end

local function lines(buf)
  return vim.api.nvim_buf_get_lines(buf, 0, -1, false)
end

local function open(path)
  vim.cmd.edit(vim.fn.fnameescape(path))
  return vim.api.nvim_get_current_buf()
end

local boxls = require('boxls')

-- `publishDiagnostics` received per URI (`boxls/settled` says how many were sent; its
-- answer may overtake the last of them).
local published = {}
local publish = vim.lsp.handlers['textDocument/publishDiagnostics']
vim.lsp.handlers['textDocument/publishDiagnostics'] = function(err, result, ctx, config)
  if result and result.uri then
    published[result.uri] = (published[result.uri] or 0) + 1
  end
  return publish(err, result, ctx, config)
end

-- What the plugin says (vim.notify), kept to check it.
local notes = {}
local original_notify = vim.notify
vim.notify = function(message, level, opts)
  notes[#notes + 1] = message
  return original_notify(message, level, opts)
end

--- Waits for a vim.notify message containing `text` (from the `from`-th on).
local function noted(text, from)
  local found
  wait_for(function()
    for i = from or 1, #notes do
      if notes[i]:find(text, 1, true) then
        found = notes[i]
        return true
      end
    end
    return false
  end, 5000)
  return found
end

local function attached(buf)
  return wait_for(function()
    local c = boxls.client(buf)
    return c ~= nil and c.initialized == true
  end)
end

local sev_name = { 'E', 'W', 'I', 'H' }

--- Diagnostics of `buf`, sorted, as comparable strings `code@l:c-l:c/S`.
local function diag_keys(buf)
  local ds = vim.diagnostic.get(buf)
  table.sort(ds, function(a, b)
    if a.lnum ~= b.lnum then
      return a.lnum < b.lnum
    end
    if a.col ~= b.col then
      return a.col < b.col
    end
    return tostring(a.code) < tostring(b.code)
  end)
  local keys = {}
  for _, d in ipairs(ds) do
    keys[#keys + 1] = string.format(
      '%s@%d:%d-%d:%d/%s',
      tostring(d.code),
      d.lnum,
      d.col,
      d.end_lnum,
      d.end_col,
      sev_name[d.severity] or '?'
    )
  end
  return keys, ds
end

--- Inlay hints of `buf` as { line, character, label } sorted by line.
local function hints(buf)
  local out = {}
  for _, h in ipairs(vim.lsp.inlay_hint.get({ bufnr = buf })) do
    local label = h.inlay_hint.label
    if type(label) == 'table' then
      local parts = {}
      for _, p in ipairs(label) do
        parts[#parts + 1] = p.value
      end
      label = table.concat(parts)
    end
    out[#out + 1] = { line = h.inlay_hint.position.line, character = h.inlay_hint.position.character, label = vim.trim(label) }
  end
  table.sort(out, function(a, b)
    return a.line < b.line
  end)
  return out
end

local function hints_str(hs)
  local parts = {}
  for _, h in ipairs(hs) do
    parts[#parts + 1] = string.format('%d:%d %q', h.line, h.character, h.label)
  end
  return table.concat(parts, ', ')
end

--- Waits until `buf` has `n` inlay hints, none of them `solving…`. Re-requests hints
--- now and then in case the server sends no `workspace/inlayHint/refresh`.
--- Returns the hints and how many times they had to be re-requested.
local function settled_hints(buf, n)
  local rerequests, last = 0, vim.uv.now()
  local ok = wait_for(function()
    local hs = hints(buf)
    if #hs == n then
      local solving = false
      for _, h in ipairs(hs) do
        solving = solving or h.label:find('solving', 1, true) ~= nil
      end
      if not solving then
        return true
      end
    end
    if vim.uv.now() - last > 5000 then
      last = vim.uv.now()
      rerequests = rerequests + 1
      vim.lsp.inlay_hint.enable(true, { bufnr = buf })
    end
    return false
  end)
  return ok, hints(buf), rerequests
end

local function token_at(buf, row, col)
  local ts = vim.lsp.semantic_tokens.get_at_pos(buf, row, col) or {}
  local t = ts[#ts]
  if not t then
    return nil
  end
  local mods = vim.tbl_keys(t.modifiers or {})
  table.sort(mods)
  return t.type .. (#mods > 0 and ('.' .. table.concat(mods, '.')) or '')
end

local function count_matching(ls, pattern)
  local n = 0
  for _, l in ipairs(ls) do
    if l:find(pattern) then
      n = n + 1
    end
  end
  return n
end

--- The plugin's copies of the server's shared facts equal what `boxls lsp
--- --print-schema` prints: every configuration key's default in lsp/boxls.lua (and no
--- key the server does not know), and the semantic token legend in TOKEN_TYPES /
--- TOKEN_MODIFIERS (the highlight links of plugin/boxls.lua).
local function check_schema(exe)
  local r = vim.system({ exe, 'lsp', '--print-schema' }, { text = true }):wait()
  local okj, schema = pcall(vim.json.decode, r.stdout or '')
  if not check(r.code == 0 and okj and type(schema) == 'table', '`boxls lsp --print-schema` prints JSON', (r.stderr or '') .. (r.stdout or '')) then
    return
  end
  local settings = dofile(root .. '/editors/nvim/lsp/boxls.lua').settings
  local known, wrong = {}, {}
  for _, entry in ipairs(schema.configuration or {}) do
    known[entry.key] = true
    local mine = vim.tbl_get(settings, unpack(vim.split(entry.key, '.', { plain = true })))
    if mine ~= entry.default then
      wrong[#wrong + 1] = string.format('%s: lsp/boxls.lua %s, server %s', entry.key, vim.inspect(mine), vim.inspect(entry.default))
    end
  end
  local function leaves(t, prefix)
    for k, v in pairs(t) do
      local key = prefix .. k
      if type(v) == 'table' then
        leaves(v, key .. '.')
      elseif not known[key] then
        wrong[#wrong + 1] = key .. ': in lsp/boxls.lua, not a server setting'
      end
    end
  end
  leaves(settings, '')
  check(#wrong == 0 and next(known) ~= nil, string.format('lsp/boxls.lua: the defaults of the server\'s %d settings, and no other key', vim.tbl_count(known)), table.concat(wrong, '\n'))
  local legend = schema.semanticTokens or {}
  local types, modifiers = vim.deepcopy(legend.types or {}), vim.deepcopy(legend.modifiers or {})
  table.sort(types)
  table.sort(modifiers)
  local my_types, my_modifiers = vim.tbl_keys(boxls.TOKEN_TYPES), vim.tbl_keys(boxls.TOKEN_MODIFIERS)
  table.sort(my_types)
  table.sort(my_modifiers)
  local typed = true
  for _, by_type in pairs(boxls.TOKEN_MODIFIERS) do
    for type in pairs(by_type) do
      typed = typed and boxls.TOKEN_TYPES[type] ~= nil
    end
  end
  check(
    vim.deep_equal(types, my_types) and vim.deep_equal(modifiers, my_modifiers) and typed,
    'semantic token legend: the server\'s types and modifiers, each linked to a group',
    string.format('server %s / %s\nplugin %s / %s', table.concat(types, ' '), table.concat(modifiers, ' '), table.concat(my_types, ' '), table.concat(my_modifiers, ' '))
  )
  check(vim.fn.hlexists('@lsp.type.rock.box') == 1 and vim.fn.hlexists('@lsp.typemod.free.dead.box') == 1, 'plugin/boxls.lua links the legend\'s groups')
end

--- The floating windows open now.
local function floats()
  return vim.tbl_filter(function(win)
    return vim.api.nvim_win_get_config(win).relative ~= ''
  end, vim.api.nvim_list_wins())
end

--- The waiting paths, made certain: a scripted server (test/fake_server.py) reports the
--- maze `solving` and holds `boxls/settled` until the test releases it. :BoxSolve,
--- :BoxPlay and :BoxSolveAll each say they wait, do nothing while held, and finish
--- when released; they ask `boxls/maze` once before and once after (no polling).
local function check_waiting(tmp)
  vim.lsp.config('boxls', { cmd = { 'python3', here .. '/fake_server.py' } })
  local held = tmp .. '/held.box'
  copy(here .. '/fixtures/held.box', held)
  local buf = open(held)
  local fake = boxls.client(buf)
  if not check(attached(buf) and (boxls.client(buf).server_info or {}).name == 'boxls-fake', 'the scripted server attaches to held.box (setup\'s config with another cmd)') then
    return
  end
  fake = assert(boxls.client(buf))
  local text = { '1 4', 'SB.T', '0 0' }
  local function stats()
    local r = fake:request_sync('fake/stats', {}, TIMEOUT, buf)
    return r and r.result or {}
  end
  --- Holds `what` for a while — a plugin asking every 200 ms would ask again meanwhile —
  --- then checks it asked `boxls/maze` and `boxls/settled` once each so far.
  local function check_no_polling(before, what)
    vim.wait(600)
    local s = stats()
    local asked = (s['boxls/maze'] or 0) - (before['boxls/maze'] or 0)
    local settled = (s['boxls/settled'] or 0) - (before['boxls/settled'] or 0)
    check(asked == 1 and settled == 1, what .. ' waits on boxls/settled: one boxls/maze request while held, no polling', vim.inspect(s))
  end

  -- :BoxSolve
  vim.api.nvim_win_set_cursor(0, { 2, 0 })
  local before, from = stats(), #notes + 1
  vim.cmd('BoxSolve')
  local said = noted('Maze #1', from)
  check(said == 'boxls: Maze #1 is still being solved; its solution is written when it is found', ':BoxSolve on a maze still being solved says it waits', said)
  check_no_polling(before, ':BoxSolve')
  check(vim.deep_equal(lines(buf), text), ':BoxSolve writes nothing while the maze is being solved', table.concat(lines(buf), '\n'))
  from = #notes + 1
  fake:notify('fake/release', {})
  said = noted('is solved', from)
  check(said == 'boxls: Maze #1 is solved; its solution is written (2 pushes · 2 moves)', ':BoxSolve, once solved, says it wrote the solution', said)
  check(wait_for(function()
    return lines(buf)[3] == '; solution: EE'
  end), ':BoxSolve, once solved, writes the line after the maze', table.concat(lines(buf), '\n'))

  -- :BoxPlay
  fake:notify('fake/hold', {})
  before, from = stats(), #notes + 1
  vim.cmd('BoxPlay')
  said = noted('Maze #1', from)
  check(said == 'boxls: Maze #1 is still being solved; it plays when solved', ':BoxPlay on a maze still being solved says it waits', said)
  check_no_polling(before, ':BoxPlay')
  check(#floats() == 0, ':BoxPlay opens no window while the maze is being solved')
  fake:notify('fake/release', {})
  local opened = wait_for(function()
    return #floats() == 1
  end)
  check(opened, ':BoxPlay, once solved, opens the player window')
  if opened then
    local pbuf = vim.api.nvim_win_get_buf(floats()[1])
    local function shown(keys, board, status)
      vim.api.nvim_feedkeys(keys, 'x', false)
      local l = vim.api.nvim_buf_get_lines(pbuf, 0, -1, false)
      return check(vim.trim(l[1]) == board and l[2]:find(status, 1, true) == 1, string.format(':BoxPlay `%s`: %s, %s', keys, board, status), table.concat(l, '\n'))
    end
    shown('0', '●■·◎', 'move 0 of 2 · push 0 of 2 · paused')
    -- The difficulty map (d): the box on the first `.` needs 1 push; the box is drawn
    -- over its own cell's 2; a legend; asked for once, however often it is toggled.
    local asked = stats()['boxls/difficulty'] or 0
    vim.api.nvim_feedkeys('d', 'x', false)
    -- The map comes from the server: wait for it (the status line says it is shown).
    wait_for(function()
      return (vim.api.nvim_buf_get_lines(pbuf, 1, 2, false)[1] or ''):find('· map$') ~= nil
    end)
    shown('', '●■1◎', 'move 0 of 2 · push 0 of 2 · paused · map')
    local l = vim.api.nvim_buf_get_lines(pbuf, 0, -1, false)
    check(l[3] == 'pushes if the box starts here: 1 2 · × unsolvable', ':BoxPlay `d`: the legend under the status line', table.concat(l, '\n'))
    local marks = vim.api.nvim_buf_get_extmarks(pbuf, vim.api.nvim_create_namespace('boxls.play'), { 0, 0 }, { 0, -1 }, { details = true })
    local shade = {}
    for _, m in ipairs(marks) do
      shade[#shade + 1] = m[4].hl_group
    end
    check(vim.tbl_contains(shade, 'BoxlsMap5') and vim.fn.hlexists('BoxlsMap5') == 1, ':BoxPlay `d`: the 1 in its shade (level 1 of 2: BoxlsMap5 of 9)', vim.inspect(shade))
    shown('l', '·●■◎', 'move 1 of 2 · push 1 of 2 · paused · map')
    shown('d', '·●■◎', 'move 1 of 2 · push 1 of 2 · paused')
    shown('d', '·●■◎', 'move 1 of 2 · push 1 of 2 · paused · map')
    shown('d', '·●■◎', 'move 1 of 2 · push 1 of 2 · paused')
    check((stats()['boxls/difficulty'] or 0) - asked == 1, ':BoxPlay asks boxls/difficulty once for the map, toggled four times', vim.inspect(stats()))
    shown('$', '··●▣', 'move 2 of 2 · push 2 of 2 · end')
    vim.api.nvim_feedkeys('q', 'x', false)
    check(wait_for(function()
      return #floats() == 0
    end), ':BoxPlay: q closes the window')
  end

  -- :BoxSolveAll
  fake:notify('fake/hold', {})
  vim.api.nvim_buf_set_lines(buf, 2, 3, false, {})
  before, from = stats(), #notes + 1
  vim.cmd('BoxSolveAll')
  said = noted('still being solved', from)
  check(said == 'boxls: 1 maze still being solved; the solutions are written when it is found', ':BoxSolveAll with a maze still being solved says it waits', said)
  vim.wait(600)
  local s = stats()
  check((s['boxls/mazes'] or 0) - (before['boxls/mazes'] or 0) == 1, ':BoxSolveAll waits on boxls/settled: one boxls/mazes request while held', vim.inspect(s))
  check(vim.deep_equal(lines(buf), text), ':BoxSolveAll writes nothing while a maze is being solved', table.concat(lines(buf), '\n'))
  from = #notes + 1
  fake:notify('fake/release', {})
  said = noted('written', from)
  check(said == 'boxls: 1 solution written (Maze #1)', ':BoxSolveAll, once solved, says what it wrote', said)
  check(wait_for(function()
    return lines(buf)[3] == '; solution: EE'
  end), ':BoxSolveAll, once solved, writes the line', table.concat(lines(buf), '\n'))

  -- :BoxHardest: waits like the others, then resolves the action (the scripted server
  -- offers it without its edit) and applies it as one undo step.
  fake:notify('fake/hold', {})
  local solved_text = lines(buf)
  before, from = stats(), #notes + 1
  vim.cmd('BoxHardest')
  said = noted('Maze #1', from)
  check(said == 'boxls: Maze #1 is still being solved; it is made hardest when it is solved', ':BoxHardest on a maze still being solved says it waits', said)
  check_no_polling(before, ':BoxHardest')
  check(vim.deep_equal(lines(buf), solved_text), ':BoxHardest changes nothing while the maze is being solved', table.concat(lines(buf), '\n'))
  from = #notes + 1
  fake:notify('fake/release', {})
  said = noted('made hardest', from)
  check(said == 'boxls: Maze #1 made hardest: 2 pushes · 2 moves → 2 pushes · 2 moves', ':BoxHardest, once solved, says what the maze was and is', said)
  local hardest_text = { '1 4', 'T.BS', '; solution: WW', '0 0' }
  check(vim.deep_equal(lines(buf), hardest_text), ':BoxHardest moves T, B and S and replaces the solution line (resolved)', table.concat(lines(buf), '\n'))
  check((stats()['codeAction/resolve'] or 0) - (before['codeAction/resolve'] or 0) == 1, ':BoxHardest resolves the action the server offered without its edit', vim.inspect(stats()))
  vim.cmd('silent undo')
  check(vim.deep_equal(lines(buf), solved_text), ':BoxHardest is one undo step', table.concat(lines(buf), '\n'))
  vim.cmd('silent redo')
  check(vim.deep_equal(lines(buf), hardest_text), ':BoxHardest: redo makes it hardest again', table.concat(lines(buf), '\n'))
  vim.cmd('silent undo')
  -- With the target kept nothing moves here: the action offered before the search was
  -- done fails to resolve, the plugin asks again, the server offers nothing, it is said.
  before, from = stats(), #notes + 1
  vim.cmd('BoxHardest!')
  said = noted('harder', from)
  check(said == 'boxls: the server offers no harder placement for Maze #1 (2 pushes · 2 moves): its S, B and T are the hardest already, or the maze is too large to search', ':BoxHardest! (target kept) where nothing would move says so', said)
  local asked = stats()
  check((asked['codeAction/resolve'] or 0) - (before['codeAction/resolve'] or 0) == 1 and (asked['textDocument/codeAction'] or 0) - (before['textDocument/codeAction'] or 0) == 2, ':BoxHardest!: the resolve that found nothing to move, then the actions asked again (none)', vim.inspect(asked))
  check(vim.deep_equal(lines(buf), solved_text), ':BoxHardest! where nothing would move changes nothing', table.concat(lines(buf), '\n'))

  fake:stop()
  check(wait_for(function()
    return fake:is_stopped()
  end, 5000), 'the scripted server exits after shutdown/exit')
end

--- :BoxPlay's difficulty map in `f`'s fitted view, on a room larger than the headless
--- window: each block shows the highest level of its cells (`×` if they are all
--- unsolvable), the levels cut from the pushes as the README says, the pushes from one
--- `boxls solve` of a file holding the room once per cell with the box moved there.
local function check_fit_map(exe, tmp)
  local R, C = 20, 76
  local rows = {}
  for r = 0, R - 1 do
    local row = {}
    for c = 0, C - 1 do
      row[c + 1] = (r % 4 == 2 and c % 6 == 3) and '#' or '.'
    end
    rows[r + 1] = row
  end
  rows[1][1], rows[2][2], rows[19][71] = 'S', 'B', 'T'
  for r = 1, R do
    rows[r] = table.concat(rows[r])
  end
  local path = tmp .. '/room.box'
  vim.fn.writefile(vim.list_extend({ R .. ' ' .. C }, vim.list_extend(vim.deepcopy(rows), { '0 0' })), path)
  -- One maze per free cell (but S's and T's), the box moved there.
  local cells, file = {}, {}
  for r = 1, R do
    for c = 1, C do
      local ch = rows[r]:sub(c, c)
      if ch == '.' or ch == 'B' then
        cells[#cells + 1] = { r - 1, c - 1 }
        file[#file + 1] = R .. ' ' .. C
        for r2 = 1, R do
          local moved = rows[r2]:gsub('B', '.')
          file[#file + 1] = r2 == r and (moved:sub(1, c - 1) .. 'B' .. moved:sub(c + 1)) or moved
        end
      end
    end
  end
  file[#file + 1] = '0 0'
  vim.fn.writefile(file, tmp .. '/room-cells.box')
  local answers = vim.system({ exe, 'solve', tmp .. '/room-cells.box' }, { text = true }):wait().stdout
  local pushes, most, k = {}, 0, 0
  for l in answers:gmatch('[^\n]+') do
    if l == 'Impossible.' or l:match('^[nsewNSEW]+$') then
      k = k + 1
      local cell = cells[k]
      local p = l ~= 'Impossible.' and select(2, l:gsub('[NSEW]', '')) or false
      pushes[cell[1] * C + cell[2]] = p
      most = math.max(most, p or 0)
    end
  end
  if not check(k == #cells, string.format('boxls solve answers the %d mazes of the room, one per cell', #cells), k) then
    return
  end
  local buf = open(path)
  attached(buf)
  settled_hints(buf, 1)
  vim.api.nvim_win_set_cursor(0, { 2, 0 })
  vim.cmd('BoxPlay')
  if not check(wait_for(function()
    return #floats() == 1
  end), ':BoxPlay opens on the 20×76 room') then
    return
  end
  local pbuf = vim.api.nvim_win_get_buf(floats()[1])
  vim.api.nvim_feedkeys('0f', 'x', false)
  local status = vim.api.nvim_buf_get_lines(pbuf, 0, -1, false)
  local kr, kc = table.concat(status, '\n'):match('fit: (%d+)×(%d+) per cell')
  kr, kc = tonumber(kr), tonumber(kc)
  if not check(kr ~= nil, ':BoxPlay `f` fits the room (the headless window is smaller)', table.concat(status, '\n')) then
    return
  end
  vim.api.nvim_feedkeys('d', 'x', false)
  local shown
  wait_for(function()
    shown = vim.api.nvim_buf_get_lines(pbuf, 0, -1, false)
    -- (`· map` ends the status line once the map is shown; `· map: asking` before)
    return vim.iter(shown):any(function(l)
      return l:find('^move %d.*· map$') ~= nil
    end)
  end)
  -- The fitted board as the README says, with the map: box, player, target, rock where
  -- most of a block is rock, else the highest level of its cells, else `×`, else floor.
  local width = math.max(1, math.ceil(most / 9))
  local want = {}
  for i = 0, math.ceil(R / kr) - 1 do
    local glyphs = {}
    for j = 0, math.ceil(C / kc) - 1 do
      local rock, all, level, unsolvable, has = 0, 0, nil, false, {}
      for r = i * kr, math.min(R, (i + 1) * kr) - 1 do
        for c = j * kc, math.min(C, (j + 1) * kc) - 1 do
          local ch = rows[r + 1]:sub(c + 1, c + 1)
          all = all + 1
          rock = rock + (ch == '#' and 1 or 0)
          has[ch] = true
          local p = pushes[r * C + c]
          if p then
            level = math.max(level or 0, math.max(1, math.ceil(p / width)))
          elseif p == false then
            unsolvable = true
          end
        end
      end
      glyphs[#glyphs + 1] = has.B and '■' or has.S and '●' or has.T and '◎' or 2 * rock > all and '█'
        or level and tostring(level) or unsolvable and '×' or '·'
    end
    want[#want + 1] = table.concat(glyphs)
  end
  local board = {}
  for _, l in ipairs(shown) do
    if l:find('^%s*move %d') then
      break
    end
    if vim.trim(l) ~= '' then
      board[#board + 1] = vim.trim(l)
    end
  end
  log('      fitted map (%d×%d per cell, the hardest cell %d pushes):\n        %s', kr, kc, most, table.concat(board, '\n        '))
  check(table.concat(board, '\n') == table.concat(want, '\n'), ':BoxPlay `f` then `d`: each block shows the highest level of its cells (the CLI\'s pushes)', 'want:\n' .. table.concat(want, '\n') .. '\ngot:\n' .. table.concat(shown, '\n') .. '\nlast message: ' .. tostring(notes[#notes]))
  vim.api.nvim_feedkeys('q', 'x', false)
  wait_for(function()
    return #floats() == 0
  end)
end

--- :BoxPlay on a level (Warehouse, two boxes): the window plays the server's solution
--- of every box; `0` shows the start as the file has it, `$` the end with both boxes
--- drawn on the goals; `d` says a level has no map; `q` closes it.
---@param buf integer the levels.xsb buffer, as the file has it
local function check_level_play(buf)
  check(vim.fn.exists(':BoxPlay') == 2 and vim.fn.exists(':BoxHardest') == 0, 'a level buffer has :BoxPlay and not the other maze commands')
  vim.api.nvim_set_current_buf(buf)
  vim.api.nvim_win_set_cursor(0, { 6, 2 })
  local from = #notes + 1
  vim.cmd('BoxPlay')
  local opened = wait_for(function()
    return #floats() == 1
  end)
  if not check(opened, ':BoxPlay on a level opens the player window', table.concat({ unpack(notes, from) }, '\n')) then
    return
  end
  local win = floats()[1]
  local pbuf = vim.api.nvim_win_get_buf(win)
  local title = vim.api.nvim_win_get_config(win).title
  title = type(title) == 'table' and table.concat(vim.tbl_map(function(t)
    return t[1]
  end, title)) or tostring(title)
  check(title:find('Level 1 “Warehouse” (6×7)', 1, true) ~= nil, ':BoxPlay on a level: the window is titled Level 1 “Warehouse” (6×7)', title)
  local function board(keys)
    vim.api.nvim_feedkeys(keys, 'x', false)
    return vim.tbl_map(vim.trim, vim.api.nvim_buf_get_lines(pbuf, 0, -1, false))
  end
  local start = board('0')
  check(start[3] == '█·■■··█' and start[4] == '█·●···█' and start[5] == '█◎◎···█' and start[7]:find('^move 0 of %d+ · push 0 of %d+ · paused') ~= nil,
    ':BoxPlay `0` on a level: both boxes, the player and both goals where the file has them', table.concat(start, '\n'))
  local ending = board('$')
  local moves = ending[7]:match('^move (%d+) of (%d+)')
  local text = table.concat(ending, '\n', 1, 6)
  local _, on_goal = text:gsub('▣', '')
  local _, off_goal = text:gsub('■', '')
  check(ending[5]:find('^█▣▣') ~= nil and on_goal == 2 and off_goal == 0 and moves ~= nil and ending[7]:find('· end') ~= nil,
    ':BoxPlay `$` on a level: the end, both boxes drawn on the goals', table.concat(ending, '\n'))
  local said = #notes + 1
  vim.api.nvim_feedkeys('d', 'x', false)
  check(noted('a level with several boxes has no difficulty map', said) ~= nil, ':BoxPlay `d` on a two-box level says it has no map')
  vim.api.nvim_set_current_win(win)
  vim.api.nvim_feedkeys('q', 'x', false)
  check(wait_for(function()
    return #floats() == 0
  end), ':BoxPlay on a level: q closes the window')
  -- The one-box level (Corridor, `#@$.#`) has its maze's map: `d` draws it and its legend.
  vim.api.nvim_set_current_buf(buf)
  vim.api.nvim_win_set_cursor(0, { 13, 1 })
  vim.cmd('BoxPlay')
  if not check(wait_for(function()
    return #floats() == 1
  end), ':BoxPlay on the one-box level opens the player window') then
    return
  end
  win = floats()[1]
  pbuf = vim.api.nvim_win_get_buf(win)
  vim.api.nvim_feedkeys('d', 'x', false)
  local mapped = wait_for(function()
    local shown = table.concat(vim.api.nvim_buf_get_lines(pbuf, 0, -1, false), '\n')
    return shown:find('pushes if the box starts here:', 1, true) ~= nil
  end)
  check(mapped, ':BoxPlay `d` on the one-box level shows its difficulty map and its legend',
    table.concat(vim.api.nvim_buf_get_lines(pbuf, 0, -1, false), '\n'))
  vim.api.nvim_set_current_win(win)
  vim.api.nvim_feedkeys('q', 'x', false)
  check(wait_for(function()
    return #floats() == 0
  end), ':BoxPlay on the one-box level: q closes the window')
end

--- A Sokoban level (examples/levels.xsb): filetype `sokoban`, boxls attached (Neovim
--- sends the filetype as the languageId), no diagnostics; walls typed over the two cells
--- above its two boxes freeze them: one `frozen-boxes` per box, on the box (as `boxls
--- check` finds them); undo clears them. A `.sok` file is a level too.
local function check_sokoban(tmp)
  local level = tmp .. '/levels.xsb'
  copy(root .. '/examples/levels.xsb', level)
  local buf = open(level)
  check(vim.bo[buf].filetype == 'sokoban', 'ftdetect: *.xsb has filetype sokoban', vim.bo[buf].filetype)
  check(vim.filetype.match({ filename = 'level.sok' }) == 'sokoban', 'ftdetect: *.sok has filetype sokoban')
  check(vim.bo[buf].commentstring == '; %s' and not vim.wo.wrap, 'ftplugin: a level has commentstring "; %s" and nowrap', vim.bo[buf].commentstring)
  check(vim.fn.exists(':BoxSolve') == 0, ':BoxSolve (a .box command) is not a command in a level buffer')
  if not check(attached(buf), 'boxls attaches to an .xsb buffer and initializes') then
    return
  end
  local uri = vim.uri_from_bufnr(buf)
  -- The first box (line 6, column 3): the server's token once it has read the level.
  check(wait_for(function()
    return token_at(buf, 5, 2) == 'box'
  end), 'semantic token on a level\'s box: box', token_at(buf, 5, 2))
  wait_for(function()
    return (published[uri] or 0) > 0
  end)
  check((published[uri] or 0) > 0 and #diag_keys(buf) == 0, 'the level as it is: diagnostics published, none', table.concat(diag_keys(buf), ' '))

  -- Walls over the two floor cells above the boxes, typed (one undo step).
  vim.api.nvim_win_set_cursor(0, { 5, 2 })
  vim.api.nvim_feedkeys('2r#', 'xt', false)
  check(lines(buf)[5] == '# ##  #', 'typed: 2r# over the cells above the boxes', lines(buf)[5])
  local frozen = tmp .. '/frozen.xsb'
  vim.fn.writefile(lines(buf), frozen)
  local r = vim.system({ vim.fn.exepath('boxls'), 'check', frozen }, { text = true }):wait()
  local cli = {}
  for line, col in (r.stdout or ''):gmatch('warning%[frozen%-boxes%]:[^\n]*\n%s*┌─ [^\n]*:(%d+):(%d+)') do
    cli[#cli + 1] = string.format('frozen-boxes@%d:%d-%d:%d/W', line - 1, col - 1, line - 1, col)
  end
  local want = { 'frozen-boxes@5:2-5:3/W', 'frozen-boxes@5:3-5:4/W' }
  check(vim.deep_equal(cli, want), '`boxls check` finds the two boxes frozen, one diagnostic each', r.stdout)
  wait_for(function()
    return vim.deep_equal(diag_keys(buf), want)
  end)
  check(vim.deep_equal(diag_keys(buf), want), 'frozen-boxes on each of the two boxes, at the box, nothing else', table.concat(diag_keys(buf), ' '))
  vim.cmd('silent undo')
  check(lines(buf)[5] == '#     #', ':undo: the row as it was', lines(buf)[5])
  check(wait_for(function()
    return #diag_keys(buf) == 0
  end), ':undo: the frozen-boxes diagnostics are gone', table.concat(diag_keys(buf), ' '))
  check_level_play(buf)
end

local function main()
  local tmp = vim.fn.tempname()
  vim.fn.mkdir(tmp, 'p')
  local broken = tmp .. '/broken.box'
  local sample = tmp .. '/sample.box'
  local sample_all = tmp .. '/all.box'
  local text = tmp .. '/notes.txt'
  copy(here .. '/fixtures/broken.box', broken)
  copy(root .. '/examples/sample.box', sample)
  copy(root .. '/examples/sample.box', sample_all)
  copy(root .. '/examples/sample.box', text)

  local exe = vim.fn.exepath('boxls')
  log('boxls: %s', exe)
  -- setup() with a path: becomes `{ path, 'lsp' }`, merged over lsp/boxls.lua.
  boxls.setup({ cmd = exe })
  local cfg = vim.lsp.config.boxls or {}
  check(
    vim.deep_equal(cfg.cmd, { exe, 'lsp' }) and vim.deep_equal(cfg.filetypes, { 'box', 'sokoban' }),
    "setup({ cmd = path }): cmd { path, 'lsp' }, filetypes { 'box', 'sokoban' } from lsp/boxls.lua",
    vim.inspect({ cmd = cfg.cmd, filetypes = cfg.filetypes })
  )
  check(vim.lsp.is_enabled('boxls'), 'setup() enables the boxls config')
  check_schema(exe)

  ---------------------------------------------------------------------------
  -- A broken file: diagnostics with their codes and exact positions.
  local buf = open(broken)
  check(vim.bo[buf].filetype == 'box', 'ftdetect: *.box has filetype box', vim.bo[buf].filetype)
  check(vim.bo[buf].commentstring == '; %s', 'ftplugin: commentstring is "; %s"', vim.bo[buf].commentstring)
  if not check(attached(buf), 'boxls attaches to a .box buffer and initializes') then
    return
  end
  local client = assert(boxls.client(buf))
  local info = client.server_info or {}
  log('      server %s %s, position encoding %s, cmd %s', info.name or '?', info.version or '?', client.offset_encoding, table.concat(client.config.cmd, ' '))

  local expected = {
    'row-length@2:0-2:6/E',
    'bad-char@5:3-5:4/E',
    'missing-player@7:0-7:3/E',
    'unsolvable@10:0-10:3/W',
    'solution-illegal@14:14-14:15/E',
    'missing-terminator@17:0-17:19/W',
    'solution-not-optimal@17:12-17:19/W',
  }
  table.sort(expected)
  local function sorted_keys()
    local keys = diag_keys(buf)
    local s = vim.deepcopy(keys)
    table.sort(s)
    return s
  end
  wait_for(function()
    return table.concat(sorted_keys(), ' ') == table.concat(expected, ' ')
  end)
  local keys, ds = diag_keys(buf)
  log('      %d diagnostics:', #ds)
  for i, d in ipairs(ds) do
    log('        %s (source %s) %s', keys[i], tostring(d.source), d.message)
  end
  check(
    table.concat(sorted_keys(), ' ') == table.concat(expected, ' '),
    string.format('diagnostics: the %d expected codes at the expected ranges, nothing else', #expected),
    'expected ' .. table.concat(expected, ' ') .. '\n got      ' .. table.concat(sorted_keys(), ' ')
  )
  local all_boxls = #ds > 0
  for _, d in ipairs(ds) do
    all_boxls = all_boxls and d.source == 'boxls'
  end
  check(all_boxls, 'every diagnostic has source "boxls"')

  wait_for(function()
    return token_at(buf, 0, 0) == 'comment'
  end)
  check(token_at(buf, 0, 0) == 'comment', 'semantic token on a comment: comment', token_at(buf, 0, 0))

  -- What the buffer is set up with.
  local ns = vim.lsp.diagnostic.get_namespace(client.id, false)
  check(vim.diagnostic.config(nil, ns).virtual_text ~= false, 'diagnostics: virtual text on for the boxls namespace', vim.inspect(vim.diagnostic.config(nil, ns)))
  check(vim.wo.signcolumn == 'yes' and vim.wo.wrap == false, 'ftplugin: signcolumn=yes, nowrap', vim.wo.signcolumn .. ' ' .. tostring(vim.wo.wrap))
  check(vim.fn.exists(':BoxSolve') == 2 and vim.fn.exists(':BoxSolveAll') == 2, 'ftplugin: :BoxSolve and :BoxSolveAll in a .box buffer')

  -- :BoxSolve in a maze with errors names the first.
  vim.api.nvim_win_set_cursor(0, { 6, 0 }) -- maze 2, the row with `x`
  local from = #notes + 1
  vim.cmd('BoxSolve')
  local said = noted('Maze #2', from)
  log('      :BoxSolve in a broken maze: %s', tostring(said))
  check(said == "boxls: Maze #2 has 1 error; fix it first (line 6: `x` is not a cell: use `#` `.` `S` `B` `T`)", ':BoxSolve in a broken maze says which error stops it', said)

  ---------------------------------------------------------------------------
  -- The sample: inlay hints, semantic tokens, :BoxSolve.
  local sbuf = open(sample)
  check(attached(sbuf), 'boxls attaches to a second .box buffer')
  check(#vim.lsp.get_clients({ name = 'boxls' }) == 1, 'one boxls server serves both buffers', #vim.lsp.get_clients({ name = 'boxls' }))
  check(vim.lsp.inlay_hint.is_enabled({ bufnr = sbuf }), 'plugin: inlay hints are enabled on attach')

  local ok, hs, rereq = settled_hints(sbuf, 4)
  log('      inlay hints: %s (re-requested %d times)', hints_str(hs), rereq)
  local want_hints = {
    { line = 0, character = 3, label = '5 pushes · 5 moves' },
    { line = 2, character = 3, label = 'unsolvable' },
    { line = 4, character = 4, label = '6 pushes · 28 moves' },
    { line = 12, character = 3, label = '3 pushes · 19 moves' },
  }
  check(ok and hints_str(hs) == hints_str(want_hints), 'inlay hints: one per header, at its end, with the optimum', 'expected ' .. hints_str(want_hints))
  check(rereq == 0, 'inlay hints settle without re-requesting them (server sends workspace/inlayHint/refresh)', rereq .. ' re-requests')

  local want_tokens = {
    { 4, 0, 'number' }, -- `7` of `7 11`
    { 5, 0, 'rock' },
    { 6, 1, 'target' },
    { 8, 5, 'box' },
    { 10, 6, 'player.dead' }, -- the player's start, on the bottom row: dead for the box
    { 8, 2, 'free' }, -- the box can go from here to T
    { 6, 4, 'free.dead' }, -- a corner: the box can never leave it
  }
  -- Dead squares may come a moment after the first tokens: wait for the full picture.
  local got_tokens, tokens_ok
  wait_for(function()
    got_tokens, tokens_ok = {}, true
    for _, t in ipairs(want_tokens) do
      local got = token_at(sbuf, t[1], t[2])
      got_tokens[#got_tokens + 1] = string.format('%d:%d=%s', t[1], t[2], tostring(got))
      tokens_ok = tokens_ok and got == t[3]
    end
    return tokens_ok
  end)
  log('      semantic tokens: %s', table.concat(got_tokens, ' '))
  check(tokens_ok, 'semantic tokens: number, rock, target, box, player.dead, free, free.dead')

  local sol3 = '; solution: eennwwWWWWeeeeeesswwwwwwwnNN'
  vim.api.nvim_win_set_cursor(0, { 9, 3 }) -- maze 3, the box's row
  from = #notes + 1
  vim.cmd('BoxSolve')
  wait_for(function()
    return lines(sbuf)[13] == sol3
  end)
  local l = lines(sbuf)
  log('      after :BoxSolve in maze 3, line 13: %q, line 14: %q', l[13] or '', l[14] or '')
  check(l[13] == sol3 and l[14] == '8 4', ':BoxSolve writes maze 3 solution right after its last row')
  said = noted('Maze #3', from)
  check(said == 'boxls: Maze #3 is solved; its solution is written (6 pushes · 28 moves)', ':BoxSolve says what it wrote (a maze already solved)', said)

  -- Spoil it, and :BoxSolve replaces it instead of adding a second line.
  vim.api.nvim_buf_set_lines(sbuf, 12, 13, false, { '; solution: eennww' })
  vim.api.nvim_win_set_cursor(0, { 5, 0 }) -- maze 3, its header
  vim.cmd('BoxSolve')
  wait_for(function()
    return lines(sbuf)[13] == sol3
  end)
  l = lines(sbuf)
  check(l[13] == sol3 and count_matching(l, '^; solution:') == 1, ':BoxSolve replaces an existing solution line', table.concat(l, '\n'))

  vim.api.nvim_win_set_cursor(0, { 1, 0 }) -- maze 1, its header
  vim.cmd('BoxSolve')
  wait_for(function()
    return lines(sbuf)[3] == '; solution: EEEEE'
  end)
  l = lines(sbuf)
  log('      after :BoxSolve in maze 1, line 3: %q', l[3] or '')
  check(l[3] == '; solution: EEEEE' and l[4] == '1 7', ':BoxSolve writes maze 1 solution')

  -- Maze 2 is unsolvable: nothing to insert.
  local before = table.concat(lines(sbuf), '\n')
  vim.api.nvim_win_set_cursor(0, { 5, 2 }) -- maze 2, its row
  from = #notes + 1
  vim.cmd('BoxSolve')
  said = noted('Maze #2', from)
  log('      :BoxSolve in an unsolvable maze: %s', tostring(said))
  check(said == 'boxls: Maze #2 is unsolvable: no push can ever move the box onto the target', ':BoxSolve in an unsolvable maze says why', said)
  check(table.concat(lines(sbuf), '\n') == before, ':BoxSolve in an unsolvable maze changes nothing')

  -- Nothing new to write where the optimal line is there.
  vim.api.nvim_win_set_cursor(0, { 10, 0 }) -- maze 3 (one line lower now)
  from = #notes + 1
  vim.cmd('BoxSolve')
  said = noted('Maze #3', from)
  check(said == 'boxls: Maze #3 already records its optimal solution (6 pushes · 28 moves)', ':BoxSolve where the optimal line is written says so', said)

  -- The written solutions are legal and optimal: once the hints have settled again,
  -- the only diagnostic left is maze 2's `unsolvable` (its header is now line 3).
  ok, hs = settled_hints(sbuf, 4)
  -- `boxls/settled` answers after the last publication for the current version.
  local settled = client:request_sync('boxls/settled', { textDocument = vim.lsp.util.make_text_document_params(sbuf) }, TIMEOUT, sbuf)
  check(settled and settled.result and settled.result.version == vim.lsp.util.buf_versions[sbuf], 'boxls/settled answers for the buffer\'s version', vim.inspect(settled))
  local uri = vim.uri_from_bufnr(sbuf)
  check(wait_for(function()
    return settled ~= nil and settled.result ~= nil and (published[uri] or 0) >= settled.result.published
  end), 'every publishDiagnostics boxls/settled counts has arrived', vim.inspect({ settled = settled, seen = published[uri] }))
  local skeys = table.concat(diag_keys(sbuf), ' ')
  log('      after the edits: hints %s; diagnostics: %s', hints_str(hs), skeys)
  check(ok and skeys == 'unsolvable@3:0-3:3/W', 'the inserted solutions raise no diagnostic (only maze 2 is unsolvable)')

  -- Settings reach the running server: turning dead squares off removes the modifier.
  wait_for(function()
    return token_at(sbuf, 7, 4) == 'free.dead'
  end)
  check(token_at(sbuf, 7, 4) == 'free.dead', 'semantic tokens follow the edits (the dead corner is now at 7:4)', tostring(token_at(sbuf, 7, 4)))
  client.settings.boxls.deadSquares.enable = false
  client:notify('workspace/didChangeConfiguration', { settings = client.settings })
  wait_for(function()
    return token_at(sbuf, 7, 4) == 'free'
  end)
  log('      with deadSquares.enable = false: 7:4=%s (was 6:4=free.dead; maze 3 is one line lower now)', tostring(token_at(sbuf, 7, 4)))
  check(token_at(sbuf, 7, 4) == 'free', 'settings: deadSquares.enable = false reaches the server (no more dead modifier)')
  client.settings.boxls.deadSquares.enable = true
  client:notify('workspace/didChangeConfiguration', { settings = client.settings })

  ---------------------------------------------------------------------------
  -- :BoxSolveAll (source action `Insert all optimal solutions`).
  local abuf = open(sample_all)
  check(attached(abuf), 'boxls attaches to a third .box buffer')
  settled_hints(abuf, 4)
  from = #notes + 1
  vim.cmd('BoxSolveAll')
  wait_for(function()
    return count_matching(lines(abuf), '^; solution:') == 3
  end)
  local sols = vim.tbl_filter(function(x)
    return x:find('^; solution:') ~= nil
  end, lines(abuf))
  log('      after :BoxSolveAll: %s', table.concat(sols, ' | '))
  check(
    table.concat(sols, '|')
      == '; solution: EEEEE|' .. sol3 .. '|; solution: swwwnnnnnneeesssSSS',
    ':BoxSolveAll writes the three solutions'
  )
  said = noted('written', from)
  check(said == 'boxls: 3 solutions written (Maze #1, #3, #4)', ':BoxSolveAll says which mazes it wrote', said)
  from = #notes + 1
  vim.cmd('BoxSolveAll')
  said = noted('no solution to write', from)
  check(said == 'boxls: no solution to write (3 already optimal, 1 unsolvable)', ':BoxSolveAll with every solution written says so', said)

  ---------------------------------------------------------------------------
  -- :BoxHardest (the server's `refactor.rewrite.hardest` actions): the buffer as `boxls
  -- hardest --maze k [--keep-target]` writes the file, the CLI's counts said, one undo
  -- step. Maze 2 tells the two actions apart: unsolvable as it is, solvable once its
  -- target moves, never with it kept (then the server offers nothing, and it is said).
  local hard = tmp .. '/hard.box'
  copy(root .. '/examples/sample.box', hard)
  local original = vim.fn.readfile(hard)
  local hbuf = open(hard)
  check(attached(hbuf), 'boxls attaches to a fourth .box buffer')
  settled_hints(hbuf, 4)
  local cases = {
    { maze = 3, keep = false, cursor = { 9, 3 } }, -- maze 3, the box's row
    { maze = 3, keep = true, cursor = { 9, 3 } },
    { maze = 2, keep = false, cursor = { 4, 2 } },
    { maze = 2, keep = true, cursor = { 4, 2 } },
  }
  for _, case in ipairs(cases) do
    local command = case.keep and 'BoxHardest keep' or 'BoxHardest'
    local what = string.format(':%s in maze %d', command, case.maze)
    local r = vim.system({ exe, 'hardest', '--maze', tostring(case.maze), hard, case.keep and '--keep-target' or nil }, { text = true }):wait()
    local want = vim.split(r.stdout, '\n', { plain = true })
    if want[#want] == '' then
      table.remove(want)
    end
    local counts = r.stderr:match('Maze #' .. case.maze .. ': ([^\n]+)')
    local placed = counts and not counts:find('no solvable placement', 1, true)
    vim.api.nvim_win_set_cursor(0, case.cursor)
    from = #notes + 1
    vim.cmd(command)
    said = noted('Maze #' .. case.maze, from)
    log('      %s: %s (boxls hardest: %s)', what, tostring(said), tostring(counts))
    if placed then
      check(said == string.format('boxls: Maze #%d made hardest%s: %s', case.maze, case.keep and ' keeping its target' or '', counts), what .. ' says what the maze was and is, as `boxls hardest` does', r.stderr)
      check(vim.deep_equal(lines(hbuf), want), string.format('%s: the buffer reads as `boxls hardest --maze %d%s` writes the file', what, case.maze, case.keep and ' --keep-target' or ''), 'want:\n' .. table.concat(want, '\n') .. '\ngot:\n' .. table.concat(lines(hbuf), '\n'))
      from = #notes + 1
      vim.cmd('BoxSolve')
      local solved = noted('Maze #' .. case.maze, from)
      check(solved ~= nil and solved:find('already records its optimal solution', 1, true) ~= nil, what .. ' wrote the optimal solution line (:BoxSolve has nothing to write)', solved)
      vim.cmd('silent undo')
      check(vim.deep_equal(lines(hbuf), original), what .. ', then :undo: the sample as it was (one undo step)', table.concat(lines(hbuf), '\n'))
    else
      check(counts ~= nil and said ~= nil and said == 'boxls: the server offers no harder placement for Maze #' .. case.maze .. ' (unsolvable): none is solvable, or the maze is too large to search', what .. ' (no solvable placement, as `boxls hardest` says) says the server offers none', tostring(said) .. '\n' .. r.stderr)
      check(vim.deep_equal(lines(hbuf), original), what .. ' changes nothing', table.concat(lines(hbuf), '\n'))
    end
  end

  check_fit_map(exe, tmp)

  check_sokoban(tmp)

  ---------------------------------------------------------------------------
  -- A .txt file with the same content: no boxls.
  local tbuf = open(text)
  vim.wait(1000)
  check(vim.bo[tbuf].filetype ~= 'box', 'a .txt file is not filetype box', vim.bo[tbuf].filetype)
  check(boxls.client(tbuf) == nil, 'boxls does not attach to a .txt file')
  check(vim.fn.exists(':BoxSolve') == 0, ':BoxSolve is not a command in a .txt buffer')

  ---------------------------------------------------------------------------
  -- The server shuts down cleanly when asked.
  client:stop()
  check(wait_for(function()
    return client:is_stopped()
  end, 5000), 'the server exits after shutdown/exit')
  -- Without the server, each command that needs it says so (and does nothing else).
  vim.api.nvim_set_current_buf(vim.fn.bufnr(sample))
  local before = lines(0)
  for _, command in ipairs({ 'BoxSolve', 'BoxPlay', 'BoxHardest' }) do
    local from = #notes + 1
    vim.cmd(command)
    check(noted('the language server is not attached to this buffer', from) ~= nil, ':' .. command .. ' without the server says it is not attached')
  end
  check(vim.deep_equal(lines(0), before), 'without the server the commands change nothing', table.concat(lines(0), '\n'))

  check_waiting(tmp)
end

-- BOXLS_E2E_ONLY=waiting runs only the scripted-server part (no boxls needed).
local ok, err = xpcall(vim.env.BOXLS_E2E_ONLY == 'waiting' and function()
  local tmp = vim.fn.tempname()
  vim.fn.mkdir(tmp, 'p')
  boxls.setup()
  check_waiting(tmp)
end or main, debug.traceback)
if not ok then
  check(false, 'the test ran to its end', err)
end
finish()
