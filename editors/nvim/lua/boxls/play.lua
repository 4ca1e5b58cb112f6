-- :BoxPlay — the optimal solution of the maze under the cursor, played in a floating
-- window: the board in Unicode glyphs with the plugin's highlights, one frame per move
-- (from the server's `boxls/replay`), a `move k of M · push p of P` line, and keys:
-- space pause/play, h/← l/→ one move back/forward, 0/$ first/last, q/Esc close.
local M = {}

local boxls = require('boxls')

M.GLYPHS = {
  rock = '█',
  free = '·',
  target = '◎',
  box = '■',
  box_on_target = '▣',
  player = '●',
}

--- Highlight group of each glyph; dead squares add BoxlsDead's shaded background.
local HL = {
  rock = 'BoxlsRock',
  free = 'BoxlsFree',
  target = 'BoxlsTarget',
  box = 'BoxlsBox',
  box_on_target = 'BoxlsBox',
  player = 'BoxlsPlayer',
}

--- A whole animation takes about this long, each move at least MIN_STEP_MS ...
local PLAY_MS = 15000
local MIN_STEP_MS, MAX_STEP_MS = 40, 300

local ns = vim.api.nvim_create_namespace('boxls.play')

---@class boxls.Replay
---@field rows integer
---@field cols integer
---@field cells string[]
---@field moves string|integer the optimal move string (or its length)
---@field pushes integer
---@field frames { player: integer[], box: integer[] }[]
---@field dead integer[][]

---@class boxls.Player
---@field replay boxls.Replay
---@field title string
---@field frame integer 0-based: frames[frame + 1] is shown
---@field pushes_at integer[] pushes done by frame k, at [k + 1]
---@field dead table<integer, true> row * cols + col of each dead square
---@field top integer first maze row in view (0-based)
---@field left integer first maze column in view (0-based)
---@field height integer board rows shown
---@field width integer board columns shown
---@field count integer moves in the solution: frames - 1
---@field indent integer spaces before each board row (the board is centred)
---@field playing boolean
---@field buf integer
---@field win integer
---@field timer uv.uv_timer_t?

local function key(p, r, c)
  return r * p.replay.cols + c
end

--- What is drawn at maze cell (r, c) in the current frame.
---@param p boxls.Player
local function kind_at(p, r, c)
  local f = p.replay.frames[p.frame + 1]
  local cell = p.replay.cells[r + 1]:sub(c + 1, c + 1)
  local target = cell == 'T'
  if f.box[1] == r and f.box[2] == c then
    return target and 'box_on_target' or 'box'
  elseif f.player[1] == r and f.player[2] == c then
    return 'player'
  elseif cell == '#' then
    return 'rock'
  elseif target then
    return 'target'
  end
  return 'free'
end

--- Moves the view so that the box and the player are in it (large mazes).
---@param p boxls.Player
local function follow(p)
  local f = p.replay.frames[p.frame + 1]
  local function fit(first, size, total, a, b)
    local lo, hi = math.min(a, b), math.max(a, b)
    if lo < first then
      first = lo - math.floor(size / 4)
    elseif hi >= first + size then
      first = hi - size + 1 + math.floor(size / 4)
    end
    return math.max(0, math.min(first, total - size))
  end
  p.top = fit(p.top, p.height, p.replay.rows, f.box[1], f.player[1])
  p.left = fit(p.left, p.width, p.replay.cols, f.box[2], f.player[2])
end

---@param p boxls.Player
local function status_line(p)
  local state = p.playing and 'playing' or (p.frame == p.count and 'end' or 'paused')
  return string.format(
    'move %d of %d · push %d of %d · %s',
    p.frame,
    p.count,
    p.pushes_at[p.frame + 1],
    p.replay.pushes,
    state
  )
end

local HELP = 'space play/pause · h/l step · q close'

---@param p boxls.Player
local function draw(p)
  if not vim.api.nvim_buf_is_valid(p.buf) then
    return
  end
  follow(p)
  local lines, marks = {}, {}
  local indent = string.rep(' ', p.indent)
  for r = p.top, p.top + p.height - 1 do
    local glyphs = { indent }
    local byte = #indent
    for c = p.left, p.left + p.width - 1 do
      local kind = kind_at(p, r, c)
      local glyph = M.GLYPHS[kind]
      glyphs[#glyphs + 1] = glyph
      marks[#marks + 1] = { #lines, byte, byte + #glyph, HL[kind] }
      if p.dead[key(p, r, c)] and kind ~= 'rock' then
        marks[#marks + 1] = { #lines, byte, byte + #glyph, 'BoxlsDead' }
      end
      byte = byte + #glyph
    end
    lines[#lines + 1] = table.concat(glyphs)
  end
  lines[#lines + 1] = status_line(p)
  lines[#lines + 1] = HELP
  vim.bo[p.buf].modifiable = true
  vim.api.nvim_buf_set_lines(p.buf, 0, -1, false, lines)
  vim.bo[p.buf].modifiable = false
  vim.api.nvim_buf_clear_namespace(p.buf, ns, 0, -1)
  for _, m in ipairs(marks) do
    vim.api.nvim_buf_set_extmark(p.buf, ns, m[1], m[2], { end_col = m[3], hl_group = m[4] })
  end
  vim.api.nvim_buf_set_extmark(p.buf, ns, #lines - 1, 0, { end_col = #HELP, hl_group = 'Comment' })
end

---@param p boxls.Player
local function stop_timer(p)
  if p.timer then
    p.timer:stop()
    p.timer:close()
    p.timer = nil
  end
end

---@param p boxls.Player
local function close(p)
  stop_timer(p)
  if vim.api.nvim_win_is_valid(p.win) then
    vim.api.nvim_win_close(p.win, true)
  end
end

---@param p boxls.Player
local function pause(p)
  p.playing = false
  stop_timer(p)
  draw(p)
end

---@param p boxls.Player
local function play(p)
  if p.frame == p.count then
    p.frame = 0 -- played to the end: play again from the start
  end
  p.playing = true
  stop_timer(p)
  local step = math.max(MIN_STEP_MS, math.min(MAX_STEP_MS, math.floor(PLAY_MS / math.max(1, p.count))))
  p.timer = assert(vim.uv.new_timer())
  p.timer:start(step, step, vim.schedule_wrap(function()
    if not p.playing or not vim.api.nvim_win_is_valid(p.win) then
      return stop_timer(p)
    end
    p.frame = p.frame + 1
    if p.frame >= p.count then
      p.frame = p.count
      p.playing = false
      stop_timer(p)
    end
    draw(p)
  end))
  draw(p)
end

---@param p boxls.Player
---@param frame integer
local function show(p, frame)
  p.playing = false
  stop_timer(p)
  p.frame = math.max(0, math.min(p.count, frame))
  draw(p)
end

---@param p boxls.Player
local function map_keys(p)
  local function map(lhs, fn)
    vim.keymap.set('n', lhs, fn, { buffer = p.buf, nowait = true, silent = true })
  end
  map('<Space>', function()
    if p.playing then
      pause(p)
    else
      play(p)
    end
  end)
  for _, lhs in ipairs({ 'l', '<Right>' }) do
    map(lhs, function()
      show(p, p.frame + 1)
    end)
  end
  for _, lhs in ipairs({ 'h', '<Left>' }) do
    map(lhs, function()
      show(p, p.frame - 1)
    end)
  end
  map('0', function()
    show(p, 0)
  end)
  map('$', function()
    show(p, p.count)
  end)
  for _, lhs in ipairs({ 'q', '<Esc>' }) do
    map(lhs, function()
      close(p)
    end)
  end
end

--- Pushes done by each frame: a move that moves the box is a push.
---@param replay boxls.Replay
local function pushes_by_frame(replay)
  local out, n = { 0 }, 0
  for k = 2, #replay.frames do
    local a, b = replay.frames[k - 1].box, replay.frames[k].box
    if a[1] ~= b[1] or a[2] ~= b[2] then
      n = n + 1
    end
    out[k] = n
  end
  return out
end

--- Opens the player window for `replay`.
---@param replay boxls.Replay
---@param title string
function M.open_replay(replay, title)
  local p = { replay = replay, title = title, frame = 0, top = 0, left = 0, playing = false } --[[@as boxls.Player]]
  p.count = #replay.frames - 1
  p.pushes_at = pushes_by_frame(replay)
  p.dead = {}
  for _, d in ipairs(replay.dead or {}) do
    p.dead[key(p, d[1], d[2])] = true
  end
  local max_w, max_h = math.max(20, vim.o.columns - 6), math.max(5, vim.o.lines - 8)
  p.width = math.min(replay.cols, max_w)
  p.height = math.min(replay.rows, max_h)
  local win_w = math.max(p.width, vim.fn.strdisplaywidth(HELP), vim.fn.strdisplaywidth(title) + 2, 32)
  local win_h = p.height + 2
  p.indent = math.floor((win_w - p.width) / 2)
  p.buf = vim.api.nvim_create_buf(false, true)
  vim.bo[p.buf].bufhidden = 'wipe'
  vim.bo[p.buf].filetype = 'boxplay'
  p.win = vim.api.nvim_open_win(p.buf, true, {
    relative = 'editor',
    row = math.max(0, math.floor((vim.o.lines - win_h) / 2) - 1),
    col = math.max(0, math.floor((vim.o.columns - win_w) / 2)),
    width = win_w,
    height = win_h,
    style = 'minimal',
    border = 'rounded',
    title = ' ' .. title .. ' ',
    title_pos = 'center',
  })
  vim.wo[p.win].wrap = false
  map_keys(p)
  vim.api.nvim_create_autocmd({ 'WinLeave', 'BufWipeout' }, {
    buffer = p.buf,
    once = true,
    callback = function()
      vim.schedule(function()
        close(p)
      end)
    end,
  })
  play(p)
  return p
end

local function notify(message, level)
  vim.notify('boxls: ' .. message, level or vim.log.levels.WARN)
end

--- :BoxPlay — plays the optimal solution of the maze under the cursor; waits for a maze
--- still being solved; says why there is nothing to play.
function M.open()
  local bufnr = vim.api.nvim_get_current_buf()
  local client = boxls.client(bufnr)
  if not client then
    return notify('the language server is not attached to this buffer (see :checkhealth boxls)')
  end
  local lnum = vim.api.nvim_win_get_cursor(0)[1] - 1
  local params = vim.lsp.util.make_position_params(0, client.offset_encoding)
  local deadline = vim.uv.now() + boxls.solve_wait_ms(client)
  local waiting = false
  -- `solved_seen`: the maze was reported solved after a request got no replay; the
  -- solve may have finished between the two requests, so one more request decides.
  local function attempt(solved_seen)
    client:request('boxls/replay', params, function(err, replay)
      if err then
        return notify('boxls/replay failed: ' .. err.message, vim.log.levels.ERROR)
      end
      boxls.maze_at(client, bufnr, lnum, function(symbol)
        if type(replay) == 'table' and type(replay.frames) == 'table' and #replay.frames > 0 then
          local title = symbol and (symbol.name .. (symbol.detail and (' · ' .. symbol.detail) or '')) or 'Maze'
          return M.open_replay(replay, title)
        end
        if not symbol then
          return notify('nothing to play: no maze under the cursor')
        end
        local detail = symbol.detail or ''
        if detail:find('^solving') and vim.uv.now() < deadline then
          if not waiting then
            waiting = true
            notify(boxls.why_no_solution(bufnr, symbol) .. '; it plays when solved', vim.log.levels.INFO)
          end
          return vim.defer_fn(attempt, 200)
        end
        if detail:find(' push') then
          if not solved_seen then
            return attempt(true)
          end
          return notify(string.format('the server sent no replay for %s (%s)', symbol.name, detail))
        end
        notify('nothing to play: ' .. boxls.why_no_solution(bufnr, symbol))
      end)
    end, bufnr)
  end
  attempt()
end

return M
