-- Screen test of the boxls Neovim plugin: a real Neovim in a real terminal (tmux, 120x40,
-- 256 colours), configured exactly as the manual's Neovim section says, driven by keys,
-- and checked on what the terminal shows.
--
-- Run from the repository root with `boxls` first on PATH (.ci/editors does this):
--   nvim -l editors/nvim/test/screen.lua
-- Environment: BOXLS_SCREEN_NVIM  the Neovim to run in the terminal (default: this one)
--              BOXLS_SCREEN_OUT   a folder for the captured screens (default: none kept)
--              BOXLS_SCREEN_TIMEOUT_MS  how long to wait for each expected screen (20000)
--
-- It prints one line per check, then `nvim-screen: N passed, M failed`, and exits
-- non-zero on any failure.

local TIMEOUT = tonumber(vim.env.BOXLS_SCREEN_TIMEOUT_MS) or 20000
local WIDTH, HEIGHT = 120, 40
local SIGNS = 2 -- `signcolumn=yes`: every buffer line starts after two sign cells
local root = vim.fn.getcwd()
local here = root .. '/editors/nvim/test'
local nvim = vim.env.BOXLS_SCREEN_NVIM or vim.v.progpath
local out_dir = vim.env.BOXLS_SCREEN_OUT ~= '' and vim.env.BOXLS_SCREEN_OUT or nil
if out_dir then
  vim.fn.mkdir(out_dir, 'p')
end

local harness = dofile(here .. '/harness.lua').new('nvim-screen')
local log, check = harness.log, harness.check

---------------------------------------------------------------------------
-- The terminal: a private tmux server, one session running Neovim.

local tmp = vim.fn.tempname()
vim.fn.mkdir(tmp, 'p')
-- A new server on a new socket for each Neovim started: a new session on the last
-- server's socket races that server's shutdown (`server exited unexpectedly` on a busy
-- machine).
local starts = 0
local socket = nil ---@type string?
local server_pid = nil ---@type integer?
local session = 'boxls'

local function tmux(...)
  assert(socket, 'no terminal started yet')
  local r = vim.system({ 'tmux', '-S', socket, ... }, { text = true }):wait()
  if r.code ~= 0 then
    error(string.format('tmux %s: %s', table.concat({ ... }, ' '), r.stderr), 2)
  end
  return r.stdout
end

--- Whether process `pid` has ended (a zombie counts: tmux's server is not our child, so
--- its reaping is up to whatever init the machine runs).
local function process_gone(pid)
  if vim.uv.kill(pid, 0) ~= 0 then
    return true
  end
  local stat = io.open('/proc/' .. pid .. '/stat')
  if not stat then
    return false
  end
  local state = (stat:read('*a') or ''):match('%) (%a)')
  stat:close()
  return state == 'Z'
end

--- Ends the current terminal's tmux server (and the Neovim in it) and waits until the
--- server process is gone (at most 10 s, then it is killed), so that it does not go on
--- competing for the machine with the next one.
local function end_terminal()
  if not socket then
    return
  end
  pcall(tmux, 'kill-server')
  if server_pid then
    local gone = vim.wait(10000, function()
      return process_gone(server_pid)
    end, 20)
    if not gone then
      vim.uv.kill(server_pid, 'sigkill')
    end
  end
  socket, server_pid = nil, nil
end

--- The terminal's lines as text (no colours), trailing blanks removed.
local function screen()
  local text = tmux('capture-pane', '-p', '-t', session)
  local ls = vim.split(text, '\n', { plain = true })
  for i, l in ipairs(ls) do
    ls[i] = l:gsub('%s+$', '')
  end
  return ls
end

--- The terminal's lines with their SGR colour escapes.
local function screen_ansi()
  return vim.split(tmux('capture-pane', '-p', '-e', '-t', session), '\n', { plain = true })
end

--- The cells of one terminal line with their colours: { char, fg, bg } each, from the
--- SGR escapes tmux reports (fg/bg as the escape's colour parameters, '' for default).
local function cells(ansi_line)
  local out, fg, bg, bold = {}, '', '', false
  local i = 1
  while i <= #ansi_line do
    local sgr, after = ansi_line:match('^\27%[([%d;:]*)m()', i)
    if sgr then
      local ps = vim.split(sgr, ';', { plain = true })
      local k = 1
      while k <= #ps do
        local p = tonumber(ps[k]) or 0
        if p == 0 then
          fg, bg, bold = '', '', false
        elseif p == 1 then
          bold = true
        elseif p == 22 then
          bold = false
        elseif p == 38 or p == 48 or p == 58 then
          local n = ps[k + 1] == '5' and 2 or 4
          local colour = table.concat(vim.list_slice(ps, k + 1, k + n), ';')
          if p == 38 then
            fg = colour
          elseif p == 48 then
            bg = colour
          end
          k = k + n
        elseif (p >= 30 and p <= 37) or (p >= 90 and p <= 97) then
          fg = tostring(p)
        elseif p == 39 then
          fg = ''
        elseif (p >= 40 and p <= 47) or (p >= 100 and p <= 107) then
          bg = tostring(p)
        elseif p == 49 then
          bg = ''
        end
        k = k + 1
      end
      i = after
    else
      local char = ansi_line:match('^[%z\1-\127\194-\244][\128-\191]*', i)
      out[#out + 1] = { char = char, fg = fg, bg = bg, bold = bold }
      i = i + #char
    end
  end
  return out
end

--- A colour as cells() reports it ('5;N', '2;R;G;B', '3x'/'9x' or '4x'/'10x'), in CSS.
local function css_colour(code, default)
  local n = tonumber((code or ''):match('^5;(%d+)$'))
  local r, g, b = (code or ''):match('^2;(%d+);(%d+);(%d+)$')
  local basic = tonumber(code)
  if basic then
    n = basic % 10 + ((basic >= 90) and 8 or 0)
  end
  if r then
    return string.format('#%02x%02x%02x', r, g, b)
  elseif not n then
    return default
  elseif n < 16 then
    local base = { '000000', 'cd0000', '00cd00', 'cdcd00', '0000ee', 'cd00cd', '00cdcd', 'e5e5e5',
      '7f7f7f', 'ff0000', '00ff00', 'ffff00', '5c5cff', 'ff00ff', '00ffff', 'ffffff' }
    return '#' .. base[n + 1]
  elseif n < 232 then
    local steps = { 0, 95, 135, 175, 215, 255 }
    n = n - 16
    return string.format('#%02x%02x%02x', steps[math.floor(n / 36) + 1], steps[math.floor(n / 6) % 6 + 1], steps[n % 6 + 1])
  end
  local grey = 8 + (n - 232) * 10
  return string.format('#%02x%02x%02x', grey, grey, grey)
end

--- The screen as a self-contained HTML page (to look at, or to screenshot).
local function screen_html(ansi)
  local out = {
    '<!doctype html><meta charset="utf-8"><style>body{margin:0;background:#14161b}'
      .. 'pre{margin:8px;font:15px/1.25 "DejaVu Sans Mono",monospace;color:#e0e2ea}</style><pre>',
  }
  for _, line in ipairs(ansi) do
    for _, c in ipairs(cells(line)) do
      local ch = c.char == '<' and '&lt;' or c.char == '&' and '&amp;' or c.char == '>' and '&gt;' or c.char
      local style = string.format('color:%s;background:%s%s', css_colour(c.fg, '#e0e2ea'), css_colour(c.bg, '#14161b'), c.bold and ';font-weight:bold' or '')
      out[#out + 1] = string.format('<span style="%s">%s</span>', style, ch)
    end
    out[#out + 1] = '\n'
  end
  out[#out + 1] = '</pre>'
  return table.concat(out)
end

local shots = 0
--- Keeps the current screen in BOXLS_SCREEN_OUT as NN-name.txt (text), .ans (with the
--- terminal's colour escapes) and .html (drawn).
local function snapshot(name)
  if not out_dir then
    return
  end
  shots = shots + 1
  local base = string.format('%s/%02d-%s', out_dir, shots, name)
  vim.fn.writefile(screen(), base .. '.txt')
  local ansi = screen_ansi()
  vim.fn.writefile(ansi, base .. '.ans')
  vim.fn.writefile(vim.split(screen_html(ansi), '\n', { plain = true }), base .. '.html')
end

--- Types `keys` as tmux key names (`Escape`, `Enter`, `C-w`, ...), one argument each.
local function press(...)
  tmux('send-keys', '-t', session, ...)
end

--- Types `text` literally.
local function type_text(text)
  tmux('send-keys', '-t', session, '-l', text)
end

--- Runs an Ex command the way a user does: `:`, the command, Enter.
local function ex(command)
  press('Escape')
  type_text(':' .. command)
  press('Enter')
end

local function screen_text(ls)
  return table.concat(ls or screen(), '\n')
end

--- Polls the screen until `pred(lines)` holds. Returns whether it did, the last lines,
--- and how long it took (ms).
local function wait_screen(pred, ms)
  local start = vim.uv.hrtime()
  local ls
  local ok = vim.wait(ms or TIMEOUT, function()
    ls = screen()
    return pred(ls) == true
  end, 100)
  return ok, ls, math.floor((vim.uv.hrtime() - start) / 1e6)
end

---------------------------------------------------------------------------
-- What the screen should show.

--- Buffer line `lnum` (0-based) as drawn, without the sign column: the window starts at
--- the top of the terminal and shows line 1 first, with 'nowrap'.
local function drawn(ls, lnum)
  return (ls[lnum + 1] or ''):sub(SIGNS + 1)
end

local function sign(ls, lnum)
  return (ls[lnum + 1] or ''):sub(1, SIGNS)
end

--- The headers of a maze file's text: { lnum (0-based), text } for each maze.
local function headers(lines)
  local out, i = {}, 1
  while i <= #lines do
    local r, c = lines[i]:match('^%s*(%d+)%s+(%d+)%s*$')
    if r and not (r == '0' and c == '0') then
      out[#out + 1] = { lnum = i - 1, text = vim.trim(lines[i]) }
      i = i + tonumber(r)
    end
    i = i + 1
  end
  return out
end

--- Each maze's inlay hint from a POJ answer (`Maze #k`, moves or `Impossible.`):
--- `P pushes · M moves` counted from the move string, or `unsolvable`.
local function labels_from_answers_text(text)
  local labels = {}
  for _, l in ipairs(vim.split(text, '\n', { plain = true })) do
    if l == 'Impossible.' then
      labels[#labels + 1] = 'unsolvable'
    elseif l:match('^[nsewNSEW]+$') then
      local pushes = select(2, l:gsub('[NSEW]', ''))
      local function plural(n, one, many)
        return string.format('%d %s', n, n == 1 and one or many)
      end
      labels[#labels + 1] = plural(pushes, 'push', 'pushes') .. ' · ' .. plural(#l, 'move', 'moves')
    end
  end
  return labels
end

local function labels_from_answers(path)
  return labels_from_answers_text(table.concat(vim.fn.readfile(path), '\n'))
end

--- { lnum, text = header .. ' ' .. label } for each maze of `lines`, labels in order;
--- a maze whose label is `false` must show its header with no hint.
local function expected_hints(lines, labels)
  local want = {}
  for k, h in ipairs(headers(lines)) do
    local label = labels[k]
    want[#want + 1] = {
      lnum = h.lnum,
      text = label and (h.text .. ' ' .. label) or h.text,
      no_hint = not label,
    }
  end
  return want
end

--- Whether every header is drawn followed by its hint (or by no hint where none is
--- wanted), and nothing says `solving…`.
local function hints_drawn(want)
  return function(ls)
    if screen_text(ls):find('solving', 1, true) then
      return false
    end
    for _, w in ipairs(want) do
      local line = drawn(ls, w.lnum)
      if line:sub(1, #w.text) ~= w.text then
        return false
      end
      local rest = line:sub(#w.text + 1)
      if w.no_hint and (rest:match('^ %d+ push') or rest:match('^ unsolvable') or rest:match('^ not solved')) then
        return false
      end
    end
    return true
  end
end

local function describe(want)
  local parts = {}
  for _, w in ipairs(want) do
    parts[#parts + 1] = string.format('%d: %s', w.lnum + 1, w.text)
  end
  return table.concat(parts, ' | ')
end

--- Waits for every hint of `want` and no `solving…`; checks it and says how long it took.
local function check_hints(want, what)
  local ok, ls, ms = wait_screen(hints_drawn(want))
  log('      (%d ms) %s', ms, describe(want))
  check(ok, what, 'screen:\n' .. screen_text(ls))
  return ok
end

---------------------------------------------------------------------------
-- Busy machine: spinning processes started (and stopped) by this test.

local spinners = {}
local function start_spinners(n)
  for _ = 1, n do
    spinners[#spinners + 1] = vim.system({ 'sh', '-c', 'exec yes >/dev/null' })
  end
end
local function stop_spinners()
  for _, s in ipairs(spinners) do
    s:kill(9)
    s:wait()
  end
  spinners = {}
end

---------------------------------------------------------------------------
-- Set-up exactly as the manual says.

--- The manual's `init.lua` for Neovim (its Editors chapter), with its placeholder path
--- made this checkout.
local function readme_init_lua()
  local chapter = table.concat(vim.fn.readfile(root .. '/docs/src/user/editors.md'), '\n')
  local section = chapter:match('\n## Neovim[^\n]*\n(.-)\n## ')
  local lua = section and section:match('```lua\n(.-)```')
  assert(lua, 'docs/src/user/editors.md: no ```lua block in the Neovim section')
  lua = lua:gsub('\n%s+', '\n'):gsub('^%s+', '')
  return (lua:gsub('/path/to/boxls', root))
end

local function write(path, lines)
  vim.fn.mkdir(vim.fs.dirname(path), 'p')
  vim.fn.writefile(lines, path)
end

--- The maze file `lines` with every maze turned by one of the square's symmetries:
--- `t` transposes, `h` mirrors left-right, `v` top-bottom (applied in that order).
--- Each keeps every maze's optimal counts, and makes new content (a fresh solve).
local function turned(lines, how)
  local out, i = {}, 1
  while i <= #lines do
    local r, c = lines[i]:match('^%s*(%d+)%s+(%d+)%s*$')
    if r and not (r == '0' and c == '0') then
      local rows = vim.list_slice(lines, i + 1, i + tonumber(r))
      if how:find('t') then
        local cols = {}
        for col = 1, tonumber(c) do
          local chars = {}
          for _, row in ipairs(rows) do
            chars[#chars + 1] = row:sub(col, col)
          end
          cols[col] = table.concat(chars)
        end
        rows, r, c = cols, c, r
      end
      if how:find('h') then
        rows = vim.tbl_map(string.reverse, rows)
      end
      if how:find('v') then
        rows = vim.fn.reverse(rows)
      end
      out[#out + 1] = r .. ' ' .. c
      vim.list_extend(out, rows)
      i = i + tonumber(lines[i]:match('^%s*(%d+)'))
    else
      out[#out + 1] = lines[i]
    end
    i = i + 1
  end
  return out
end

--- Starts Neovim on `file` in a new terminal (ending the previous one), with `path` as
--- its PATH (default: this process's).
local function start_nvim(file, path)
  end_terminal()
  starts = starts + 1
  local env = {
    'HOME=' .. tmp .. '/home',
    'XDG_CONFIG_HOME=' .. tmp .. '/config',
    'XDG_DATA_HOME=' .. tmp .. '/data',
    'XDG_STATE_HOME=' .. tmp .. '/state',
    'XDG_CACHE_HOME=' .. tmp .. '/cache',
    'PATH=' .. (path or vim.env.BOXLS_SCREEN_PATH or vim.env.PATH),
    'LANG=C.UTF-8',
  }
  write(tmp .. '/tmux.conf', {
    'set -g default-terminal tmux-256color',
    'set -g status off',
    'set -g escape-time 10',
  })
  local sock = string.format('%s/tmux-%d.sock', tmp, starts)
  local cmd = { 'tmux', '-S', sock, '-f', tmp .. '/tmux.conf', 'new-session', '-d', '-s', session }
  vim.list_extend(cmd, { '-x', tostring(WIDTH), '-y', tostring(HEIGHT), '-c', tmp, '--', 'env' })
  vim.list_extend(cmd, env)
  vim.list_extend(cmd, { nvim, file })
  local r = vim.system(cmd, { text = true }):wait()
  assert(r.code == 0, 'tmux new-session: ' .. (r.stderr or ''))
  socket = sock
  local pid = tonumber(vim.trim(tmux('display-message', '-p', '#{pid}')))
  server_pid = pid and pid > 1 and pid or nil
end

--- Waits until the screen shows `text` somewhere; checks it.
local function check_shown(text, what)
  local ok, ls = wait_screen(function(ls)
    return screen_text(ls):find(text, 1, true) ~= nil
  end)
  check(ok, what, 'wanted ' .. vim.inspect(text) .. ' on the screen:\n' .. screen_text(ls))
  return ok, ls
end

--- What `boxls` prints for `args` (the CLI: the same core, another front end).
local function boxls_cli(...)
  local r = vim.system({ 'boxls', ... }, { text = true }):wait()
  return r.stdout .. r.stderr
end

--- A `n`x`n` room with a row of pillars every fourth row; S and B in the top left
--- corner, T near the bottom right: slow enough to be seen solving.
local function big_room(n)
  local lines = { n .. ' ' .. n }
  for r = 0, n - 1 do
    local row = {}
    for c = 0, n - 1 do
      row[#row + 1] = (r % 4 == 2 and c >= 2 and c < n - 2 and c % 4 == 2) and '#' or '.'
    end
    lines[#lines + 1] = table.concat(row)
  end
  local function put(r, c, ch)
    lines[r + 2] = lines[r + 2]:sub(1, c) .. ch .. lines[r + 2]:sub(c + 2)
  end
  put(0, 1, 'S')
  put(1, 1, 'B')
  put(n - 2, n - 2, 'T')
  lines[#lines + 1] = '0 0'
  return lines
end

--- PATH without any folder that has a `boxls`.
local function path_without_boxls()
  local dirs = vim.tbl_filter(function(dir)
    return vim.fn.executable(dir .. '/boxls') == 0
  end, vim.split(vim.env.PATH, ':', { plain = true }))
  return table.concat(dirs, ':')
end

--- :BoxPlay's glyphs (its board is checked cell by cell against these).
local GLYPH = { rock = '█', free = '·', target = '◎', box = '■', box_on_target = '▣', player = '●' }
local DIRS = { n = { -1, 0 }, s = { 1, 0 }, e = { 0, 1 }, w = { 0, -1 } }

--- The board of `rows` after the first `k` moves of `path`, drawn in GLYPH, played out
--- here from the rules (a move into the box pushes it).
local function board_after(rows, path, k)
  local player, box
  for r, row in ipairs(rows) do
    player = player or (row:find('S', 1, true) and { r, row:find('S', 1, true) })
    box = box or (row:find('B', 1, true) and { r, row:find('B', 1, true) })
  end
  for i = 1, k do
    local d = DIRS[path:sub(i, i):lower()]
    player = { player[1] + d[1], player[2] + d[2] }
    if player[1] == box[1] and player[2] == box[2] then
      box = { box[1] + d[1], box[2] + d[2] }
    end
  end
  local out = {}
  for r, row in ipairs(rows) do
    local glyphs = {}
    for c = 1, #row do
      local cell = row:sub(c, c)
      if box[1] == r and box[2] == c then
        glyphs[c] = cell == 'T' and GLYPH.box_on_target or GLYPH.box
      elseif player[1] == r and player[2] == c then
        glyphs[c] = GLYPH.player
      else
        glyphs[c] = cell == '#' and GLYPH.rock or cell == 'T' and GLYPH.target or GLYPH.free
      end
    end
    out[r] = table.concat(glyphs)
  end
  return out
end

--- The characters of a screen line (each one cell wide here).
local function chars(line)
  local out = {}
  for ch in line:gmatch('[%z\1-\127\194-\244][\128-\191]*') do
    out[#out + 1] = ch
  end
  return out
end

--- :BoxPlay's window as drawn: its status numbers and the `height` board rows above
--- the status line: `width` cells from the first non-blank one at or right of the status
--- line's first column (the board is centred; its glyphs are never blank). Nil if not
--- shown.
local function player_window(ls, height, width)
  for i, l in ipairs(ls) do
    local cs = chars(l)
    local line = table.concat(cs)
    local s, _, k, m, p, pp = line:find('move (%d+) of (%d+) · push (%d+) of (%d+)')
    if s then
      local col = #chars(line:sub(1, s - 1)) + 1
      local board, board_col = {}, nil
      for r = i - height, i - 1 do
        local row = chars(ls[r] or '')
        local first = col
        while row[first] == ' ' do
          first = first + 1
        end
        board_col = board_col or first
        board[#board + 1] = table.concat(vim.list_slice(row, first, first + width - 1))
      end
      return { k = tonumber(k), moves = tonumber(m), push = tonumber(p), pushes = tonumber(pp), board = board, row = i, col = board_col, status = line }
    end
  end
end

--- :BoxPlay on the sample's maze 3 (the sample is open, idle): open, animate, pause,
--- step, colours, close.
local function check_boxplay(sample)
  local rows3 = vim.list_slice(sample, 6, 12)
  local path3 = vim.fn.readfile(root .. '/examples/sample.out')[8] -- maze 3's moves
  local moves3, pushes3 = #path3, select(2, path3:gsub('[NSEW]', ''))
  ex('9') -- maze 3, the box's row
  ex('BoxPlay')
  local w
  local opened = wait_screen(function(l)
    w = player_window(l, #rows3, #rows3[1])
    return w ~= nil and w.k > 0
  end)
  if not check(opened and w.moves == moves3 and w.pushes == pushes3, string.format(':BoxPlay opens a window playing maze 3: `move k of %d · push p of %d`', moves3, pushes3), screen_text()) then
    return
  end
  local k0 = w and w.k or 0
  local advancing = wait_screen(function(l)
    w = player_window(l, #rows3, #rows3[1])
    return w ~= nil and w.k > k0
  end)
  check(advancing, string.format(':BoxPlay animates: the move count goes on by itself (%d, then %d)', k0, w and w.k or -1))
  snapshot('boxplay-playing')
  press('Space')
  local paused = wait_screen(function(l)
    w = player_window(l, #rows3, #rows3[1])
    return w ~= nil and w.status:find('· paused', 1, true) ~= nil
  end)
  check(paused, ':BoxPlay: space pauses', w and w.status)
  local k = w and w.k or 0
  local function board_is(frame, what)
    local ok, l = wait_screen(function(l)
      w = player_window(l, #rows3, #rows3[1])
      return w ~= nil and w.k == frame and table.concat(w.board, '\n') == table.concat(board_after(rows3, path3, frame), '\n')
    end)
    check(ok, what, 'expected move ' .. frame .. ':\n' .. table.concat(board_after(rows3, path3, frame), '\n') .. '\nscreen:\n' .. screen_text(l))
    return ok
  end
  board_is(k, string.format(':BoxPlay: paused at move %d, the board shows the player and box after %d moves', k, k))
  vim.wait(1000)
  board_is(k, ':BoxPlay: still at move ' .. k .. ' a second later (paused)')
  press('l')
  board_is(k + 1, ':BoxPlay: l steps forward one move')
  press('Left')
  press('h')
  board_is(k - 1, ':BoxPlay: ← and h step back one move each')
  press('$')
  board_is(moves3, ':BoxPlay: $ shows the last move: the box on the target')
  snapshot('boxplay-end')
  -- Colours in the window: the player's and the box's own, dead squares shaded.
  local ansi = screen_ansi()
  local function float_cell(r, c)
    return cells(ansi[w.row - #rows3 + r - 1] or '')[w.col + c - 1] or {}
  end
  local corner = float_cell(2, 5) -- maze row 2, column 5: the dead corner
  local live = float_cell(4, 3)
  check(corner.bg ~= '' and corner.bg ~= live.bg, ':BoxPlay: dead squares shaded in the window', vim.inspect({ corner, live }))
  press('q')
  local closed = wait_screen(function(l)
    return player_window(l, #rows3, #rows3[1]) == nil
  end)
  check(closed, ':BoxPlay: q closes the window')
  ex('BoxPlay')
  wait_screen(function(l)
    return player_window(l, #rows3, #rows3[1]) ~= nil
  end)
  press('Escape')
  closed = wait_screen(function(l)
    return player_window(l, #rows3, #rows3[1]) == nil
  end)
  check(closed, ':BoxPlay: Esc closes the window')
end

--- The difficulty map of `rows` (a maze's rows) as :BoxPlay draws it at the start, the
--- way the plugin's README says: each free cell but S's and T's solved by the CLI with
--- the box moved there (one `boxls solve` of a file holding one maze per cell), its
--- pushes cut into levels 1–9 (the pushes themselves when the hardest cell needs at most
--- nine, else ceil(pushes / ceil(most / 9))), `×` where unsolvable; the box and the
--- player drawn over their cells. Returns the board, the legend line and the level of
--- each cell drawn as one ('r,c', 0-based → level).
local function difficulty_board(rows)
  local cells, file = {}, {}
  for r, row in ipairs(rows) do
    for c = 1, #row do
      local ch = row:sub(c, c)
      if ch == '.' or ch == 'B' then
        cells[#cells + 1] = { r, c }
        file[#file + 1] = #rows .. ' ' .. #row
        for r2, row2 in ipairs(rows) do
          local moved = row2:gsub('B', '.')
          if r2 == r then
            moved = moved:sub(1, c - 1) .. 'B' .. moved:sub(c + 1)
          end
          file[#file + 1] = moved
        end
      end
    end
  end
  file[#file + 1] = '0 0'
  write(tmp .. '/cells.box', file)
  local answers = vim.split(boxls_cli('solve', tmp .. '/cells.box'), '\n', { plain = true })
  local pushes, k, most = {}, 0, 0
  for _, l in ipairs(answers) do
    if l == 'Impossible.' or l:match('^[nsewNSEW]+$') then
      k = k + 1
      pushes[k] = l ~= 'Impossible.' and select(2, l:gsub('[NSEW]', '')) or false
      most = math.max(most, pushes[k] or 0)
    end
  end
  assert(k == #cells, 'boxls solve answered ' .. k .. ' of ' .. #cells .. ' mazes')
  local width = math.max(1, math.ceil(most / 9))
  local glyph, levels = {}, {}
  for i, cell in ipairs(cells) do
    local level = pushes[i] and math.max(1, math.ceil(pushes[i] / width))
    glyph[cell[1] .. ',' .. cell[2]] = level and tostring(level) or '×'
    -- (the box's own cell is drawn as the box, in the box's colour)
    if rows[cell[1]]:sub(cell[2], cell[2]) ~= 'B' then
      levels[(cell[1] - 1) .. ',' .. (cell[2] - 1)] = level or nil
    end
  end
  local board = {}
  for r, row in ipairs(rows) do
    local out = {}
    for c = 1, #row do
      local ch = row:sub(c, c)
      out[c] = ch == '#' and GLYPH.rock or ch == 'S' and GLYPH.player or ch == 'B' and GLYPH.box
        or ch == 'T' and GLYPH.target or glyph[r .. ',' .. c]
    end
    board[r] = table.concat(out)
  end
  local legend = { 'pushes if the box starts here:' }
  for level = 1, math.max(1, math.ceil(most / width)) do
    if width == 1 then
      legend[#legend + 1] = tostring(level)
    else
      local lo, hi = (level - 1) * width + 1, math.min(most, level * width)
      legend[#legend + 1] = lo == hi and string.format('%d %d', level, lo) or string.format('%d %d–%d', level, lo, hi)
    end
  end
  legend[#legend + 1] = '· × unsolvable'
  return board, table.concat(legend, ' '), levels
end

--- :BoxPlay's difficulty map on the sample's maze 3: `d` draws it over the board at the
--- start (checked cell by cell against the CLI), with its legend and a shade per level;
--- `d` again takes it off.
local function check_difficulty_map(sample)
  local rows3 = vim.list_slice(sample, 6, 12)
  local path3 = vim.fn.readfile(root .. '/examples/sample.out')[8]
  local want, legend, levels = difficulty_board(rows3)
  ex('9')
  ex('BoxPlay')
  local w
  local opened = wait_screen(function(l)
    w = player_window(l, #rows3, #rows3[1])
    return w ~= nil
  end)
  if not check(opened, ':BoxPlay opens on maze 3 for the map', screen_text()) then
    return
  end
  press('Space')
  press('0')
  local at_start = wait_screen(function(l)
    w = player_window(l, #rows3, #rows3[1])
    return w ~= nil and w.k == 0 and w.status:find('paused', 1, true) ~= nil
  end)
  check(at_start, ':BoxPlay: space, 0: paused at the start', w and w.status)
  --- The line under the status line, from the status line's first column on.
  local function under_status(l)
    local status = l[w.row]
    local first = #chars(status:sub(1, status:find('move', 1, true) - 1)) + 1
    return table.concat(vim.list_slice(chars(l[w.row + 1] or ''), first, first + #chars(legend) - 1))
  end
  press('d')
  local shown, l = wait_screen(function(l)
    w = player_window(l, #rows3, #rows3[1])
    return w ~= nil and w.status:find('· map', 1, true) ~= nil and table.concat(w.board, '\n') == table.concat(want, '\n')
      and under_status(l) == legend
  end)
  log('      map of maze 3 (from %d CLI solves):\n        %s\n        %s', vim.tbl_count(levels), table.concat(want, '\n        '), legend)
  check(shown, ':BoxPlay `d`: every free cell shows its level of pushes (the CLI\'s, cell by cell), × where unsolvable, and the legend', 'want:\n' .. table.concat(want, '\n') .. '\n' .. legend .. '\nscreen:\n' .. screen_text(l))
  snapshot('boxplay-map')
  -- The shades: every level's cells on one background, each level its own.
  local ansi = screen_ansi()
  local by_level, bgs, same = {}, {}, true
  for key, level in pairs(levels) do
    local r, c = key:match('(%d+),(%d+)')
    local cell = cells(ansi[w.row - #rows3 + tonumber(r)] or '')[w.col + tonumber(c)] or {}
    same = same and cell.bg ~= '' and (by_level[level] == nil or by_level[level] == cell.bg)
    by_level[level] = cell.bg
  end
  for _, bg in pairs(by_level) do
    bgs[bg] = true
  end
  check(same and vim.tbl_count(bgs) == vim.tbl_count(by_level), string.format(':BoxPlay `d`: %d levels in %d shades', vim.tbl_count(by_level), vim.tbl_count(bgs)), vim.inspect(by_level))
  press('d')
  local off, l2 = wait_screen(function(l)
    w = player_window(l, #rows3, #rows3[1])
    return w ~= nil and w.status:find('map', 1, true) == nil and table.concat(w.board, '\n') == table.concat(board_after(rows3, path3, 0), '\n')
      and not screen_text(l):find('pushes if the box starts here', 1, true)
  end)
  check(off, ':BoxPlay `d` again: the board without the map, no legend', screen_text(l2))
  press('q')
  check(wait_screen(function(l)
    return player_window(l, #rows3, #rows3[1]) == nil
  end), ':BoxPlay (map): q closes the window')
end

--- :BoxHardest on a copy of the sample, maze 3: the buffer shows what `boxls hardest
--- --maze 3` writes (and `keep`: `--keep-target`), the message says what the maze was
--- and is (the CLI's counts), and `u` takes it back.
local function check_boxhardest(sample)
  write(tmp .. '/hardest.box', sample)
  local function cli(...)
    local r = vim.system({ 'boxls', 'hardest', '--maze', '3', tmp .. '/hardest.box', ... }, { text = true }):wait()
    local before, after = r.stderr:match('Maze #3: (.-) → ([^\n]+)')
    return vim.split(vim.trim(r.stdout), '\n', { plain = true }), before, after
  end
  ex('edit hardest.box')
  check_hints(expected_hints(sample, labels_from_answers(root .. '/examples/sample.out')), 'hardest.box: open, every maze solved')
  for _, keep in ipairs({ false, true }) do
    local want, before, after = cli(keep and '--keep-target' or nil)
    local command = keep and 'BoxHardest keep' or 'BoxHardest'
    ex('9')
    ex(command)
    local said = string.format('boxls: Maze #3 made hardest%s: %s → %s', keep and ' keeping its target' or '', before, after)
    check_shown(said, string.format(':%s says what maze 3 was and is (%s → %s, as `boxls hardest` says)', command, before, after))
    local ok, ls = wait_screen(function(l)
      for lnum = 0, #want - 1 do
        if drawn(l, lnum):sub(1, #want[lnum + 1]) ~= want[lnum + 1] then
          return false
        end
      end
      return true
    end)
    check(ok, string.format(':%s: the buffer reads as `boxls hardest --maze 3%s` writes it', command, keep and ' --keep-target' or ''), 'want:\n' .. table.concat(want, '\n') .. '\nscreen:\n' .. screen_text(ls))
    snapshot(keep and 'boxhardest-keep' or 'boxhardest')
    ex('undo')
    local undone, ls2 = wait_screen(function(l)
      for lnum = 0, #sample - 1 do
        if drawn(l, lnum):sub(1, #sample[lnum + 1]) ~= sample[lnum + 1] then
          return false
        end
      end
      return true
    end)
    check(undone, string.format(':%s, then :undo: the sample as it was (one undo step)', command), screen_text(ls2))
  end
  ex('write')
end

--- Player and box (0-based row, column) after the first `k` moves of `path` on `rows`.
local function positions_after(rows, path, k)
  local player, box
  for r, row in ipairs(rows) do
    local s, b = row:find('S', 1, true), row:find('B', 1, true)
    player = player or (s and { r - 1, s - 1 })
    box = box or (b and { r - 1, b - 1 })
  end
  for i = 1, k do
    local d = DIRS[path:sub(i, i):lower()]
    player = { player[1] + d[1], player[2] + d[2] }
    if player[1] == box[1] and player[2] == box[2] then
      box = { box[1] + d[1], box[2] + d[2] }
    end
  end
  return player, box
end

--- The glyph :BoxPlay draws at maze cell (r, c) (0-based) with `player` and `box` there.
local function glyph_at(rows, r, c, player, box)
  local cell = rows[r + 1]:sub(c + 1, c + 1)
  if box[1] == r and box[2] == c then
    return cell == 'T' and GLYPH.box_on_target or GLYPH.box
  elseif player[1] == r and player[2] == c then
    return GLYPH.player
  end
  return cell == '#' and GLYPH.rock or cell == 'T' and GLYPH.target or GLYPH.free
end

--- The fitted board (`f`) as the README describes it: blocks of 2k rows × k columns,
--- k the least that fits `height` × `width`; a block shows the box, else the player,
--- else the target if it holds it, else rock where most of its cells are rock, else
--- floor.
local function fitted_board(rows, height, width, player, box)
  local nr, nc = #rows, #rows[1]
  local kc = math.max(1, math.ceil(nc / width), math.ceil(nr / (2 * height)))
  local kr = 2 * kc
  local out = {}
  for i = 0, math.ceil(nr / kr) - 1 do
    local glyphs = {}
    for j = 0, math.ceil(nc / kc) - 1 do
      local rock, all, target = 0, 0, false
      for r = i * kr, math.min(nr, (i + 1) * kr) - 1 do
        for c = j * kc, math.min(nc, (j + 1) * kc) - 1 do
          local cell = rows[r + 1]:byte(c + 1)
          all = all + 1
          rock = rock + (cell == 35 and 1 or 0) -- '#'
          target = target or cell == 84 -- 'T'
        end
      end
      local function holds(pos)
        return math.floor(pos[1] / kr) == i and math.floor(pos[2] / kc) == j
      end
      local on_target = rows[box[1] + 1]:sub(box[2] + 1, box[2] + 1) == 'T'
      glyphs[#glyphs + 1] = holds(box) and (on_target and GLYPH.box_on_target or GLYPH.box)
        or holds(player) and GLYPH.player
        or target and GLYPH.target
        or 2 * rock > all and GLYPH.rock
        or GLYPH.free
    end
    out[#out + 1] = table.concat(glyphs)
  end
  return out, kr, kc
end

--- :BoxPlay on a maze larger than the window: the view follows the box (checked against
--- the moves played out here: where the box is drawn, and every cell around it), `f`
--- fits the whole maze, and how fast it plays (a figure, not a check).
local function check_bigplay(rows, path)
  local height, width = HEIGHT - 8, WIDTH - 6 -- the player's window, as play.lua sizes it
  ex('2')
  ex('BoxPlay')
  local w
  local opened = wait_screen(function(l)
    w = player_window(l, height, width)
    return w ~= nil
  end)
  if not check(opened and w.moves == #path, string.format(':BoxPlay opens on the 2000x2000 room: `move k of %d`', #path), screen_text()) then
    return
  end
  snapshot('bigplay-playing')
  press('Space')
  local paused = wait_screen(function(l)
    w = player_window(l, height, width)
    return w ~= nil and w.status:find('· paused', 1, true) ~= nil
  end)
  check(paused, ':BoxPlay 2000x2000: space pauses', w and w.status)
  --- Whether the drawn view is the maze around the box after `w.k` moves: the box drawn
  --- once, where it is relative to every other cell drawn, and the view's rows and
  --- columns in the status line.
  local function view_ok(w)
    local player, box = positions_after(rows, path, w.k)
    local sr, sc
    for i, line in ipairs(w.board) do
      for j, ch in ipairs(chars(line)) do
        if ch == GLYPH.box or ch == GLYPH.box_on_target then
          if sr then
            return false, 'two boxes drawn'
          end
          sr, sc = i - 1, j - 1
        end
      end
    end
    if not sr then
      return false, 'no box drawn'
    end
    local top, left = box[1] - sr, box[2] - sc
    for i, line in ipairs(w.board) do
      local cs = chars(line)
      if #cs ~= width then
        return false, string.format('row %d of the view has %d cells', i, #cs)
      end
      for j, ch in ipairs(cs) do
        local want = glyph_at(rows, top + i - 1, left + j - 1, player, box)
        if ch ~= want then
          return false, string.format('view cell %d,%d (maze %d,%d): %s, want %s', i, j, top + i - 1, left + j - 1, ch, want)
        end
      end
    end
    local shown = string.format('rows %d–%d, cols %d–%d', top + 1, top + height, left + 1, left + width)
    if not w.status:find(shown, 1, true) then
      return false, 'the status line does not say ' .. shown
    end
    return true, shown
  end
  local function check_view(what, frame)
    local ok, why
    local shown, l = wait_screen(function(l)
      w = player_window(l, height, width)
      if not w or (frame and w.k ~= frame) then
        return false
      end
      ok, why = view_ok(w)
      return ok
    end)
    log('      move %s: %s', w and w.k or '?', tostring(why))
    check(shown, what, tostring(why) .. '\nscreen:\n' .. screen_text(l))
  end
  check_view(':BoxPlay 2000x2000, paused: the view shows the cells around the box after the moves shown')
  local k = w and w.k or 0
  press('l')
  check_view(':BoxPlay 2000x2000: l steps one move, the view still around the box', k + 1)
  press('$')
  check_view(':BoxPlay 2000x2000: $ shows the last move, the view scrolled to the box on the target', #path)
  snapshot('bigplay-end')
  -- Fit: the whole maze in the window.
  press('f')
  local player, box = positions_after(rows, path, #path)
  local want, kr, kc = fitted_board(rows, height, width, player, box)
  local fitted, l = wait_screen(function(l)
    w = player_window(l, #want, #chars(want[1]))
    return w ~= nil and w.status:find('fit: ' .. kr .. '×' .. kc .. ' per cell', 1, true) ~= nil
      and table.concat(w.board, '\n') == table.concat(want, '\n')
  end)
  check(fitted, string.format(':BoxPlay 2000x2000: f fits the whole maze (%d×%d cells per screen cell, %d×%d drawn)', kr, kc, #want, #chars(want[1])), 'want:\n' .. table.concat(want, '\n') .. '\nscreen:\n' .. screen_text(l))
  snapshot('bigplay-fit')
  press('f')
  check_view(':BoxPlay 2000x2000: f again: back to the view around the box', #path)
  -- Too large for the server's design search: no map (null), and it is said.
  press('d')
  check_shown('boxls: no difficulty map: the server has no map of this maze', ':BoxPlay 2000x2000 `d`: the server has no map of a maze this large, and it is said')
  check_view(':BoxPlay 2000x2000 after `d`: the board as it was', #path)
  -- Speed while playing (a figure for the README, not a check): two frames seen while
  -- playing, each stamped on the one monotonic clock when its screen was captured. The
  -- first is taken only once `0` is drawn and Space has made it play: a frame from
  -- before `0` (the last move, still on the screen) would make the pace negative.
  press('0')
  local at_start = wait_screen(function(l)
    w = player_window(l, height, width)
    return w ~= nil and w.k == 0 and w.status:find('· paused', 1, true) ~= nil
  end)
  check(at_start, ':BoxPlay 2000x2000: 0 goes back to move 0, paused', w and w.status)
  press('Space')
  local function playing_frame()
    local l = screen()
    local t = vim.uv.hrtime()
    local f = player_window(l, height, width)
    if f and (f.status:find('· playing', 1, true) or f.status:find('· end', 1, true)) then
      return f, t
    end
  end
  local f0, t0, f1, t1
  vim.wait(TIMEOUT, function()
    f0, t0 = playing_frame()
    return f0 ~= nil and f0.k > 0
  end, 20)
  if f0 then
    vim.wait(3000)
    vim.wait(TIMEOUT, function()
      f1, t1 = playing_frame()
      return f1 ~= nil
    end, 20)
  end
  check(f0 and f1 and f1.k >= f0.k, ':BoxPlay 2000x2000: Space from move 0 plays forward', string.format('%s, then %s', f0 and f0.status, f1 and f1.status))
  if f0 and f1 and t1 > t0 then
    log('      playing 2000x2000: %.1f moves/s over %.1f s (the timer asks for %d/s)%s', (f1.k - f0.k) / ((t1 - t0) / 1e9), (t1 - t0) / 1e9, math.floor(1000 / math.max(40, math.min(300, math.floor(15000 / #path)))), f1.k == #path and '; played to the end first: a lower bound' or '')
  end
  press('q')
  local closed = wait_screen(function(l)
    return player_window(l, height, width) == nil
  end)
  check(closed, ':BoxPlay 2000x2000: q closes the window')
end

---------------------------------------------------------------------------

local function main()
  local exe = vim.fn.exepath('boxls')
  log('boxls: %s; nvim: %s; tmux: %s', exe, nvim, vim.trim(vim.fn.system({ 'tmux', '-V' })))
  assert(exe ~= '', 'boxls is not on PATH')
  local init = readme_init_lua()
  -- BOXLS_SCREEN_PACKAGE (set by screen.sh from the release archive): the plugin is its
  -- nvim/ folder linked in as a native package, as the README says, not this checkout.
  local package = vim.env.BOXLS_SCREEN_PACKAGE
  if package then
    vim.fn.mkdir(tmp .. '/data/nvim/site/pack/boxls/start', 'p')
    assert(vim.uv.fs_symlink(package .. '/nvim', tmp .. '/data/nvim/site/pack/boxls/start/boxls'))
    init = init:gsub('vim%.opt%.runtimepath:append%b()\n', '')
  end
  log('      init.lua (from the manual):\n        %s', init:gsub('\n', '\n        '))
  write(tmp .. '/config/nvim/init.lua', vim.split(init, '\n'))

  local sample = vim.fn.readfile(root .. '/examples/sample.box')
  local labels = labels_from_answers(root .. '/examples/sample.out')
  write(tmp .. '/sample.box', sample)
  local turns = { 'h', 'v', 'hv', 't', 'th', 'tv', 'thv' }
  for _, how in ipairs(turns) do
    write(tmp .. '/turned-' .. how .. '.box', turned(sample, how))
  end

  ---------------------------------------------------------------------------
  -- Opening the sample: every maze's counts, nothing left `solving…`.
  start_nvim('sample.box')
  check_hints(expected_hints(sample, labels), 'open sample.box: every header shows its counts, no `solving…` left')
  snapshot('sample-open')

  ---------------------------------------------------------------------------
  -- What a new user sees besides the hints.
  local check_out = boxls_cli('check', tmp .. '/sample.box')
  local unsolvable = check_out:match('warning%[unsolvable%]: ([^\n]+)')
  check_shown(unsolvable, 'diagnostics: maze 2 shows its message at the end of its header line (not just a sign)')
  local ls = screen()
  check(sign(ls, 2) == 'W ' and drawn(ls, 2):find('1 7 unsolvable', 1, true) == 1, 'diagnostics: a W sign, the hint, then the message', ls[3])
  ex('set signcolumn? wrap?')
  check_shown('signcolumn=yes', '.box buffers: signcolumn=yes')
  check_shown('nowrap', '.box buffers: nowrap')

  -- Colours (a 256-colour terminal): S, B and T each their own, dead squares shaded.
  local function colours()
    local rows = screen_ansi()
    local function cell(lnum, col)
      return cells(rows[lnum + 1] or '')[SIGNS + col + 1] or { char = '?', fg = '?', bg = '?' }
    end
    return {
      S = cell(10, 6),
      B = cell(8, 5),
      T = cell(6, 1),
      dead = cell(6, 4), -- a corner: the box could never leave it
      live = cell(8, 2), -- the box can go from here to T
    }
  end
  local c
  local colours_ok = wait_screen(function()
    c = colours()
    return c.S.char == 'S' and c.B.char == 'B' and c.T.char == 'T'
      and c.S.fg ~= '' and c.B.fg ~= '' and c.T.fg ~= ''
      and c.S.fg ~= c.B.fg and c.B.fg ~= c.T.fg and c.S.fg ~= c.T.fg
      and c.dead.bg ~= '' and c.dead.bg ~= c.live.bg
  end)
  log('      S fg %s, B fg %s, T fg %s; dead `.` bg %q, live `.` bg %q', c.S.fg, c.B.fg, c.T.fg, c.dead.bg, c.live.bg)
  check(colours_ok, 'highlights: S, B and T in three colours, a dead square on a shaded background', vim.inspect(c))
  check(c.S.fg:find('^5;') and c.B.fg:find('^5;') and c.T.fg:find('^5;'), 'highlights: 256-colour codes (38;5;N) in a 256-colour terminal', vim.inspect(c))
  snapshot('sample-colours')

  -- :BoxSolve where there is nothing to write says why.
  ex('4') -- maze 2's row
  ex('BoxSolve')
  check_shown('Maze #2 is unsolvable: ', ':BoxSolve in an unsolvable maze says so')
  snapshot('boxsolve-unsolvable')

  ---------------------------------------------------------------------------
  -- :BoxPlay: maze 3 played in a floating window.
  check_boxplay(sample)
  check_difficulty_map(sample)
  ex('4') -- maze 2's row
  ex('BoxPlay')
  check_shown('boxls: nothing to play: Maze #2 is unsolvable: ', ':BoxPlay in an unsolvable maze says so')
  check_boxhardest(sample)

  ---------------------------------------------------------------------------
  -- The same on a busy machine, for the sample turned each other way (new content,
  -- the same counts: each open is a fresh race between the solves and the hints).
  start_spinners(4)
  for _, how in ipairs(turns) do
    ex('edit turned-' .. how .. '.box')
    local lines = turned(sample, how)
    check_hints(expected_hints(lines, labels), 'busy machine, open turned-' .. how .. '.box: every header shows its counts')
  end
  ex('edit turned-h.box')
  local model = turned(sample, 'h')
  snapshot('turned-busy')

  -- An edit that breaks maze 1 (a row one cell short), then one that fixes it anew.
  ex('2') -- maze 1's row `T....BS`
  press('0', 'l', 'x')
  model[2] = model[2]:sub(1, 1) .. model[2]:sub(3)
  local no_hint_1 = vim.deepcopy(labels)
  no_hint_1[1] = false -- a maze with errors has no hint
  check_hints(expected_hints(model, no_hint_1), 'busy machine, maze 1 broken: its hint is gone, the others stay')
  snapshot('turned-broken')
  ex('BoxSolve')
  check_shown('Maze #1 has 1 error; fix it first (line 2: ', ':BoxSolve in a broken maze names its error')
  ex('BoxPlay')
  check_shown('boxls: nothing to play: Maze #1 has 1 error; fix it first (line 2: ', ':BoxPlay in a broken maze says so')
  ex('2')
  -- Fixed with a `.` in front: `.T...BS` is new content (a fresh solve), 4 pushes west.
  press('0')
  type_text('i.')
  press('Escape')
  model[2] = '.' .. model[2]
  local fixed = vim.deepcopy(labels)
  fixed[1] = '4 pushes · 4 moves'
  check_hints(expected_hints(model, fixed), 'busy machine, maze 1 fixed (new content): its counts are back')
  snapshot('turned-fixed')

  -- Maze 3 loses its first row; the `Set header` quick fix from `gra` repairs it.
  local header3 = headers(model)[3].lnum
  ex(tostring(header3 + 2))
  press('d', 'd')
  table.remove(model, header3 + 2)
  local no_hint_3 = vim.deepcopy(fixed)
  no_hint_3[3] = false
  check_hints(expected_hints(model, no_hint_3), 'busy machine, maze 3 one row short: its hint is gone')
  ex(tostring(header3 + 1))
  press('g', 'r', 'a')
  local menu_ok, menu = wait_screen(function(ls)
    return screen_text(ls):find('Set header', 1, true) ~= nil
  end)
  snapshot('quick-fix-menu')
  local item
  for _, l in ipairs(menu) do
    item = item or l:match('^(%d+)[:.] Set header')
  end
  check(menu_ok and item ~= nil, '`gra` on the header lists the `Set header` quick fix', screen_text(menu))
  if item then
    type_text(item)
    press('Enter')
  end
  local rows3 = tonumber(model[header3 + 1]:match('^(%d+)')) - 1
  model[header3 + 1] = rows3 .. ' ' .. model[header3 + 1]:match('(%d+)%s*$')
  check_hints(expected_hints(model, fixed), 'busy machine, after `Set header`: the header reads ' .. model[header3 + 1] .. ' and shows its counts')
  snapshot('after-set-header')

  ---------------------------------------------------------------------------
  -- A 2000x2000 room on the busy machine. :BoxSolve is typed at once; whether the solve
  -- is still running then depends on the machine, so either path is accepted here (the
  -- waiting path is made certain in e2e.lua against a scripted server): the line is
  -- written, and the last message says which maze was solved and what was written.
  local n = 2000
  local big = big_room(n)
  write(tmp .. '/big.box', big)
  local answer = boxls_cli('solve', tmp .. '/big.box'):match('Maze #1\n([nsewNSEW]+)')
  local big_labels = labels_from_answers_text(answer)
  ex('edit big.box')
  ex('2')
  ex('BoxSolve')
  snapshot('big-solving')
  check_hints(expected_hints(big, big_labels), 'busy machine, 2000x2000 room: its counts replace `solving…`')
  local written = 'boxls: Maze #1 is solved; its solution is written (' .. big_labels[1] .. ')'
  check_shown(written, ':BoxSolve says it wrote Maze #1\'s solution, with its counts')
  ex('messages')
  -- The history has several lines (earlier commands' messages): it ends in the prompt.
  local _, history = wait_screen(function(l)
    local shown = screen_text(l)
    return shown:find('Press ENTER', 1, true) ~= nil and shown:find(written, 1, true) ~= nil
  end)
  local order = screen_text(history)
  check(order:find(written, 1, true) ~= nil, ':messages keeps what :BoxSolve wrote', order)
  local waited = order:find('boxls: Maze #1 is still being solved; its solution is written when it is found', 1, true)
  log('      :BoxSolve %s', waited and 'waited for the solve' or 'found the maze solved')
  check(
    (waited or -1) < (order:find(written, 1, true) or math.huge),
    ':messages: `still being solved` (if said) comes before `solved`',
    order
  )
  -- The messages pager (or a one-line message) goes away; the maze rows are drawn.
  press('Enter')
  local rows_ok
  rows_ok, ls = wait_screen(function(l)
    for lnum = 1, HEIGHT - 3 do
      if drawn(l, lnum) ~= big[lnum + 1]:sub(1, WIDTH - SIGNS) then
        return false
      end
    end
    return true
  end)
  check(rows_ok, 'nowrap: each screen row shows the start of the next 2000-cell maze row', screen_text(ls))
  press('G')
  check_shown('; solution: ' .. answer:sub(1, WIDTH - SIGNS - 12), ':BoxSolve wrote the optimal solution after the last row')
  snapshot('big-solved')
  stop_spinners()
  check_bigplay(vim.list_slice(big, 2, n + 1), answer)

  ---------------------------------------------------------------------------
  -- Commands are the .box buffers' own.
  write(tmp .. '/notes.txt', sample)
  ex('edit notes.txt')
  ex('BoxSolve')
  check_shown('E492: Not an editor command: BoxSolve', ':BoxSolve exists only in .box buffers')

  ---------------------------------------------------------------------------
  -- A Sokoban level: walls typed over the cells above its two boxes freeze them; each
  -- box's diagnostic is found with ]d (the ruler at the box, as `boxls check` places
  -- them), its float names the code; `u` takes it all back.
  local level = vim.fn.readfile(root .. '/examples/levels.xsb')
  write(tmp .. '/levels.xsb', level)
  ex('edit levels.xsb')
  local row = 5 -- the row above the boxes (1-based), its cells 3 and 4 floor
  check(level[row] == '#     #', 'examples/levels.xsb: line 5 is the floor above the boxes', level[row])
  local frozen = vim.deepcopy(level)
  frozen[row] = '# ##  #'
  write(tmp .. '/frozen.xsb', frozen)
  local boxes = {}
  for line, col in boxls_cli('check', tmp .. '/frozen.xsb'):gmatch('warning%[frozen%-boxes%][^\n]*\n%s*┌─ [^\n]*:(%d+):(%d+)') do
    boxes[#boxes + 1] = line .. ',' .. col
  end
  check(vim.deep_equal(boxes, { '6,3', '6,4' }), '`boxls check`: the typed walls freeze both boxes', table.concat(boxes, ' '))
  local drawn_level = wait_screen(function(ls)
    return drawn(ls, row - 1) == level[row] and drawn(ls, row) == level[row + 1]
  end)
  check(drawn_level and sign(screen(), row) == '  ', 'levels.xsb drawn as it is, no sign on the boxes\' row', screen_text())
  press('Escape')
  type_text(row .. 'G3|2r#')
  local signed, ls = wait_screen(function(ls)
    return drawn(ls, row - 1) == frozen[row] and sign(ls, row) == 'W '
  end)
  check(signed, 'typed 2r# above the boxes: a W sign on the boxes\' row', screen_text(ls))
  snapshot('level-frozen')
  type_text('gg')
  for k, at in ipairs(boxes) do
    type_text(']d')
    local status = HEIGHT - 1
    local ok, sl = wait_screen(function(ls)
      return (ls[status] or ''):find(' ' .. at .. ' ', 1, true) ~= nil
    end)
    check(ok, string.format(']d (%d of 2): the cursor on box %s', k, at), sl and sl[status])
  end
  press('C-w', 'd')
  local floated, fl = wait_screen(function(ls)
    return select(2, screen_text(ls):gsub('%[frozen%-boxes%]', '')) == 2
  end)
  check(floated, '<C-w>d on the row: its float lists [frozen-boxes] twice, one per box', screen_text(fl))
  snapshot('level-frozen-float')
  press('Escape')
  type_text('u')
  local undone, ul = wait_screen(function(ls)
    return drawn(ls, row - 1) == level[row] and sign(ls, row) == '  ' and not screen_text(ls):find('frozen-boxes', 1, true)
  end)
  check(undone, 'u: the row as it was, the sign and the float gone', screen_text(ul))

  -- :checkhealth boxls with everything in place.
  local version = vim.trim(boxls_cli('--version'))
  ex('edit sample.box')
  ex('checkhealth boxls')
  check_shown('OK ' .. version .. ' (', ':checkhealth boxls: finds ' .. version)
  check_shown('OK the boxls config is enabled', ':checkhealth boxls: the config is enabled')
  snapshot('checkhealth')
  if package then
    check_shown(package .. '/bin/boxls)', ':checkhealth boxls: runs the boxls shipped beside the plugin')
    -- Hidden now: the next check is about a machine with no boxls at all.
    assert(vim.uv.fs_rename(package .. '/bin/boxls', package .. '/bin/boxls.hidden'))
  end

  ---------------------------------------------------------------------------
  -- No boxls on PATH: said at start-up, and by :checkhealth boxls.
  write(tmp .. '/fresh.box', sample)
  start_nvim('fresh.box', path_without_boxls())
  check_shown('boxls: `boxls` is not an executable on PATH', 'no boxls on PATH: setup() says so at start-up')
  snapshot('no-boxls')
  press('Enter')
  ex('checkhealth boxls')
  -- The health buffer conceals markdown backticks where its syntax is loaded.
  local wanted = { 'ERROR `boxls` is not an executable on PATH', 'ERROR boxls is not an executable on PATH' }
  local ok, ls = wait_screen(function(ls)
    local shown = screen_text(ls)
    return shown:find(wanted[1], 1, true) ~= nil or shown:find(wanted[2], 1, true) ~= nil
  end)
  check(ok, 'no boxls on PATH: :checkhealth boxls reports it',
    'wanted ' .. vim.inspect(wanted) .. ' on the screen:\n' .. screen_text(ls))
  snapshot('no-boxls-checkhealth')
end

local ok, err = xpcall(main, debug.traceback)
stop_spinners()
if not ok then
  check(false, 'the test ran to its end', err)
end
end_terminal()
vim.fn.delete(tmp, 'rf')
os.exit(harness.summary() and 0 or 1)
