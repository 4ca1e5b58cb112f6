-- :BoxPlay — the solution of the maze (or Sokoban level) under the cursor, played in a floating
-- window: the board in Unicode glyphs with the plugin's highlights, a `move k of M · push
-- p of P` line, and keys: space pause/play, h/← l/→ one move back/forward, 0/$ first/last,
-- f fit the whole maze in the window (or back to the cells around the box), d the
-- difficulty map over the board (or off again), q/Esc close.
--
-- A maze larger than the window is shown through a viewport that follows the box. The
-- server plays the moves (`boxls/replay` with `frames: false`): the player's cell after
-- each move and the box's after each push, indexed here into four integers per move; each
-- frame draws only the cells in view, so a 2000×2000 maze plays at the same speed as a
-- small one. Nothing here knows how a move is played.
local M = {}

local boxls = require('boxls')
local difficulty = require('boxls.difficulty')

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
  void = 'Normal',
}

--- A level's cells outside its walls are not part of the board: drawn blank.
M.GLYPHS.void = ' '

--- The replay's cell characters that are a target (a goal: a level's `*` and `+` too).
local TARGET = { T = true, ['*'] = true, ['+'] = true }

--- A whole animation takes about this long, each move at least MIN_STEP_MS ...
local PLAY_MS = 15000
local MIN_STEP_MS, MAX_STEP_MS = 40, 300


local ns = vim.api.nvim_create_namespace('boxls.play')

---@class boxls.Replay
---@field rows integer
---@field cols integer
---@field cells string[]
---@field moves string the optimal move string
---@field pushes integer
---@field start { player: integer[], box: integer[] } 0-based (row, column)
---@field boxes integer[][]? every box's start (a level has several), 0-based (row, column)
---@field steps integer[] the player's cell (row * cols + col) after each move
---@field pushed integer[][] each push: { move (0-based), box, the box's new cell }
---@field dead integer[][]

---@class boxls.Fit
---@field kr integer maze rows per screen cell
---@field kc integer maze columns per screen cell
---@field h integer board rows drawn
---@field w integer board columns drawn
---@field kinds string[][] the static kind of each block (rock, free, target)

---@class boxls.Player
---@field replay boxls.Replay
---@field title string
---@field frame integer 0-based: the position after `frame` moves is shown
---@field count integer moves in the solution
---@field pr integer[] player row after k moves, at [k] (k = 0..count)
---@field pc integer[]
---@field pushes_at integer[] pushes done after k moves, at [k]
---@field pushes { box: integer, from: integer, to: integer }[] each push: which box, its cells
---@field at integer[] each box's cell (row * cols + col) at the frame shown
---@field on table<integer, integer> the box on each cell at the frame shown
---@field applied integer the pushes `at` and `on` have made
---@field dead table<integer, true> row * cols + col of each dead square
---@field top integer first maze row in view (0-based)
---@field left integer first maze column in view (0-based)
---@field height integer board rows shown
---@field width integer board columns shown
---@field win_w integer the window's width now
---@field base_w integer its width without the map's legend
---@field max_w integer the widest it may be
---@field large boolean the maze does not fit in the window
---@field fitting boolean the whole maze is shown scaled down (`f`)
---@field fit boxls.Fit? computed on the first `f`
---@field map boxls.Difficulty? the difficulty map, asked for on the first `d`
---@field fit_map table<integer, table<integer, integer|true>>? per fitted block, its hardest level (true: only unsolvable cells)
---@field mapping boolean the map is shown
---@field asking boolean the map has been asked for and has not come yet
---@field ask_map fun(callback: fun(map: boxls.Difficulty?, err: string?))
---@field playing boolean
---@field buf integer
---@field win integer
---@field timer uv.uv_timer_t?

--- Indexes the server's deltas: the player after each move, each push (which box, from
--- and to), and the pushes done by then. Stops at a delta off the board or of no box
--- (never in the server's own answer).
---@param p boxls.Player
local function index_moves(p)
  local replay = p.replay
  local cols, cells = replay.cols, replay.rows * replay.cols
  local start = replay.start
  local pr, pc = start.player[1], start.player[2]
  p.pr, p.pc, p.pushes_at, p.pushes = { [0] = pr }, { [0] = pc }, { [0] = 0 }, {}
  local at = {}
  for i, b in ipairs(replay.boxes or { start.box }) do
    at[i] = b[1] * cols + b[2]
  end
  p.at, p.on, p.applied = vim.deepcopy(at), {}, 0
  for i, cell in ipairs(at) do
    p.on[cell] = i
  end
  local steps, pushed = replay.steps or {}, replay.pushed or {}
  local on_board = function(cell)
    return type(cell) == 'number' and cell >= 0 and cell < cells
  end
  local next_push, count = 1, 0
  for k = 1, #steps do
    local push = pushed[next_push]
    if push and push[1] == k - 1 then
      local box = type(push[2]) == 'number' and push[2] + 1
      if not (box and at[box] and on_board(push[3])) then
        break
      end
      p.pushes[next_push] = { box = box, from = at[box], to = push[3] }
      at[box] = push[3]
      next_push = next_push + 1
    end
    if not on_board(steps[k]) then
      break
    end
    pr, pc = math.floor(steps[k] / cols), steps[k] % cols
    count = k
    p.pr[k], p.pc[k], p.pushes_at[k] = pr, pc, next_push - 1
  end
  p.count = count
end

--- Moves the boxes (`at`, `on`) to the frame shown, push by push.
---@param p boxls.Player
local function sync_boxes(p)
  local want = p.pushes_at[p.frame] or 0
  while p.applied < want do
    local push = p.pushes[p.applied + 1]
    p.on[push.from], p.on[push.to], p.at[push.box] = nil, push.box, push.to
    p.applied = p.applied + 1
  end
  while p.applied > want do
    local push = p.pushes[p.applied]
    p.on[push.to], p.on[push.from], p.at[push.box] = nil, push.box, push.from
    p.applied = p.applied - 1
  end
end

local function key(p, r, c)
  return r * p.replay.cols + c
end

--- What is drawn at maze cell (r, c) in the current frame (the boxes as `draw` synced them).
---@param p boxls.Player
local function kind_at(p, r, c)
  local k = p.frame
  local cell = p.replay.cells[r + 1]:sub(c + 1, c + 1)
  local target = TARGET[cell]
  if p.on[key(p, r, c)] then
    return target and 'box_on_target' or 'box'
  elseif p.pr[k] == r and p.pc[k] == c then
    return 'player'
  elseif cell == '#' then
    return 'rock'
  elseif cell == ' ' then
    return 'void'
  elseif target then
    return 'target'
  end
  return 'free'
end

--- Moves the view so that the box (one box) or the player (a level's many) and the
--- player are in it, a quarter of the view ahead of the edge it crossed.
---@param p boxls.Player
local function follow(p)
  local k = p.frame
  local cols = p.replay.cols
  local br, bc = p.pr[k], p.pc[k]
  if #p.at == 1 then
    br, bc = math.floor(p.at[1] / cols), p.at[1] % cols
  end
  local function fit(first, size, total, a, b)
    local lo, hi = math.min(a, b), math.max(a, b)
    if lo < first then
      first = lo - math.floor(size / 4)
    elseif hi >= first + size then
      first = hi - size + 1 + math.floor(size / 4)
    end
    return math.max(0, math.min(first, total - size))
  end
  p.top = fit(p.top, p.height, p.replay.rows, br, p.pr[k])
  p.left = fit(p.left, p.width, p.replay.cols, bc, p.pc[k])
end

--- The whole maze in the view: each screen cell stands for a block of `kr` × `kc` maze
--- cells (twice as many rows as columns: a terminal cell is about twice as tall as wide)
--- and shows, in this order, the box, the player or the target if the block holds it,
--- rock if most of its cells are rock, else floor. The blocks' rock/floor/target are
--- worked out once.
---@param p boxls.Player
---@return boxls.Fit
local function fit_of(p)
  local rows, cols = p.replay.rows, p.replay.cols
  local kc = math.max(1, math.ceil(cols / p.width), math.ceil(rows / (2 * p.height)))
  local kr = 2 * kc
  local h, w = math.ceil(rows / kr), math.ceil(cols / kc)
  local rock = {} -- rock[i][j]: rock cells counted in block (i, j)
  local target_blocks = {}
  for i = 0, h - 1 do
    rock[i] = {}
    for j = 0, w - 1 do
      rock[i][j] = 0
    end
  end
  for r = 0, rows - 1 do
    local row, i = p.replay.cells[r + 1], math.floor(r / kr)
    local counts = rock[i]
    for j = 0, w - 1 do
      local _, n = row:sub(j * kc + 1, (j + 1) * kc):gsub('#', '')
      counts[j] = counts[j] + n
    end
    for t in row:gmatch('()[T%*%+]') do
      target_blocks[#target_blocks + 1] = { i, math.floor((t - 1) / kc) }
    end
  end
  local kinds = {}
  for i = 0, h - 1 do
    kinds[i] = {}
    local cells_r = math.min(rows, (i + 1) * kr) - i * kr
    for j = 0, w - 1 do
      local cells = cells_r * (math.min(cols, (j + 1) * kc) - j * kc)
      kinds[i][j] = 2 * rock[i][j] > cells and 'rock' or 'free'
    end
  end
  for _, block in ipairs(target_blocks) do
    kinds[block[1]][block[2]] = 'target'
  end
  return { kr = kr, kc = kc, h = h, w = w, kinds = kinds }
end

--- What is drawn at block (i, j) of the fitted board in the current frame.
---@param p boxls.Player
local function fit_kind_at(p, i, j)
  local f, k, cols = p.fit, p.frame, p.replay.cols
  for _, cell in ipairs(p.at) do
    local br, bc = math.floor(cell / cols), cell % cols
    if math.floor(br / f.kr) == i and math.floor(bc / f.kc) == j then
      return TARGET[p.replay.cells[br + 1]:sub(bc + 1, bc + 1)] and 'box_on_target' or 'box'
    end
  end
  if math.floor(p.pr[k] / f.kr) == i and math.floor(p.pc[k] / f.kc) == j then
    return 'player'
  end
  return f.kinds[i][j]
end

--- The glyph, group and dead shading of maze cell (r, c) in the current frame: with the
--- map shown, a free cell the map has a value for shows its level (or the unsolvable
--- mark) instead, and dead squares are not shaded (the map says more).
---@param p boxls.Player
local function cell_at(p, r, c)
  local kind = kind_at(p, r, c)
  if p.mapping and kind == 'free' then
    local glyph, group = difficulty.cell(p.map, r, c)
    if glyph then
      return glyph, group, false
    end
  end
  return M.GLYPHS[kind], HL[kind], not p.mapping and kind ~= 'rock' and p.dead[key(p, r, c)] == true
end

--- The map of the fitted board: per block, the highest level of its cells, or true if
--- the map's cells there are all unsolvable. Worked out once, on the first `d` in fit.
---@param p boxls.Player
local function fit_map_of(p)
  local f, map = p.fit, p.map
  local out = {}
  for i = 0, f.h - 1 do
    out[i] = {}
  end
  local cols = map.cols
  for r = 0, map.rows - 1 do
    local blocks, base = out[math.floor(r / f.kr)], r * cols + 1
    for c = 0, cols - 1 do
      local kind, j = map.kind[base + c], math.floor(c / f.kc)
      if kind == 'solved' then
        local level = difficulty.level(map, map.pushes[base + c])
        local was = blocks[j]
        blocks[j] = (type(was) == 'number' and math.max(was, level)) or level
      elseif kind == 'unsolvable' and blocks[j] == nil then
        blocks[j] = true
      end
    end
  end
  return out
end

--- The glyph and group of block (i, j) of the fitted board in the current frame.
---@param p boxls.Player
local function fit_cell_at(p, i, j)
  local kind = fit_kind_at(p, i, j)
  if p.mapping and kind == 'free' then
    p.fit_map = p.fit_map or fit_map_of(p)
    local level = p.fit_map[i][j]
    if level == true then
      return difficulty.UNSOLVABLE, 'BoxlsMapUnsolvable'
    elseif level then
      return tostring(level), difficulty.shade(p.map, level)
    end
  end
  return M.GLYPHS[kind], HL[kind]
end

---@param p boxls.Player
local function status_line(p)
  local state = p.playing and 'playing' or (p.frame == p.count and 'end' or 'paused')
  local line = string.format('move %d of %d · push %d of %d · %s', p.frame, p.count, p.pushes_at[p.frame], p.replay.pushes, state)
  if p.fitting then
    line = line .. string.format(' · fit: %d×%d per cell', p.fit.kr, p.fit.kc)
  elseif p.large then
    line = line .. string.format(' · rows %d–%d, cols %d–%d', p.top + 1, p.top + p.height, p.left + 1, p.left + p.width)
  end
  if p.mapping then
    line = line .. ' · map'
  elseif p.asking then
    line = line .. ' · map: asking the server'
  end
  return line
end

local HELP = 'space play/pause · h/l step · f fit · d map · q close'

--- How wide the map's legend is on one line.
---@param map boxls.Difficulty
local function legend_width(map)
  local items = difficulty.legend(map)
  local w = #items - 1
  for _, item in ipairs(items) do
    for _, run in ipairs(item) do
      w = w + vim.fn.strdisplaywidth(run[1])
    end
  end
  return w
end

--- The window `height` lines tall and `p.win_w` wide, centred in the editor.
---@param p boxls.Player
---@param height integer
local function place(p, height)
  if not vim.api.nvim_win_is_valid(p.win) then
    return
  end
  if vim.api.nvim_win_get_width(p.win) == p.win_w and vim.api.nvim_win_get_height(p.win) == height then
    return
  end
  vim.api.nvim_win_set_config(p.win, {
    relative = 'editor',
    row = math.max(0, math.floor((vim.o.lines - height) / 2) - 1),
    col = math.max(0, math.floor((vim.o.columns - p.win_w) / 2)),
    width = p.win_w,
    height = height,
  })
end

--- The map's legend in lines of at most `width` cells, each { text, runs }: its items
--- side by side, a space apart, a new line where the next would not fit.
---@param map boxls.Difficulty
---@param width integer
local function legend_lines(map, width)
  local out, text, runs, used = {}, nil, nil, 0
  for _, item in ipairs(difficulty.legend(map)) do
    local w = 0
    for _, run in ipairs(item) do
      w = w + vim.fn.strdisplaywidth(run[1])
    end
    if text and used + 1 + w > width then
      out[#out + 1] = { table.concat(text), runs }
      text = nil
    end
    if not text then
      text, runs, used = {}, {}, 0
    else
      text[#text + 1] = ' '
      used = used + 1
    end
    for _, run in ipairs(item) do
      local byte = #table.concat(text)
      text[#text + 1] = run[1]
      if run[2] then
        runs[#runs + 1] = { byte, byte + #run[1], run[2] }
      end
    end
    used = used + w
  end
  if text then
    out[#out + 1] = { table.concat(text), runs }
  end
  return out
end

--- One board row: its text and highlight runs { first byte, last byte + 1, group, dead }
--- (cells of one group side by side make one run). `cell_of(c)` is the glyph, group and
--- whether it is shaded dead of the row's c-th cell (0-based).
local function row_of(indent, n, cell_of)
  local glyphs, runs = { indent }, {}
  local byte, run = #indent, nil
  for c = 0, n - 1 do
    local glyph, group, dead = cell_of(c)
    dead = dead == true
    if run and run[3] == group and run[4] == dead then
      run[2] = byte + #glyph
    else
      run = { byte, byte + #glyph, group, dead }
      runs[#runs + 1] = run
    end
    glyphs[#glyphs + 1] = glyph
    byte = byte + #glyph
  end
  return table.concat(glyphs), runs
end

---@param p boxls.Player
local function draw(p)
  if not vim.api.nvim_buf_is_valid(p.buf) then
    return
  end
  -- The boxes where the frame shown has them, once for every cell drawn.
  sync_boxes(p)
  -- The window widens for the legend (up to the widest it may be; then it wraps).
  p.win_w = p.mapping and math.max(p.base_w, math.min(p.max_w, legend_width(p.map))) or p.base_w
  local lines, runs = {}, {}
  local function add(text, row_runs)
    lines[#lines + 1] = text
    runs[#lines] = row_runs or {}
  end
  if p.fitting then
    local f = p.fit
    local indent = string.rep(' ', math.floor((p.win_w - f.w) / 2))
    local pad = math.floor((p.height - f.h) / 2)
    for _ = 1, pad do
      add('')
    end
    for i = 0, f.h - 1 do
      add(row_of(indent, f.w, function(j)
        return fit_cell_at(p, i, j)
      end))
    end
    for _ = pad + f.h + 1, p.height do
      add('')
    end
  else
    follow(p)
    local indent = string.rep(' ', math.floor((p.win_w - p.width) / 2))
    for r = p.top, p.top + p.height - 1 do
      local left = p.left
      add(row_of(indent, p.width, function(c)
        return cell_at(p, r, left + c)
      end))
    end
  end
  add(status_line(p))
  if p.mapping then
    for _, line in ipairs(legend_lines(p.map, p.win_w)) do
      add(line[1], line[2])
    end
  end
  add(HELP, { { 0, #HELP, 'Comment' } })
  -- The legend's lines come and go with the map: the window is as tall as its lines.
  place(p, #lines)
  vim.bo[p.buf].modifiable = true
  vim.api.nvim_buf_set_lines(p.buf, 0, -1, false, lines)
  vim.bo[p.buf].modifiable = false
  vim.api.nvim_buf_clear_namespace(p.buf, ns, 0, -1)
  for i, row_runs in ipairs(runs) do
    for _, run in ipairs(row_runs) do
      vim.api.nvim_buf_set_extmark(p.buf, ns, i - 1, run[1], { end_col = run[2], hl_group = run[3] })
      if run[4] then
        vim.api.nvim_buf_set_extmark(p.buf, ns, i - 1, run[1], { end_col = run[2], hl_group = 'BoxlsDead' })
      end
    end
  end
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

--- `f`: the whole maze scaled into the window, or back to the view around the box.
---@param p boxls.Player
local function toggle_fit(p)
  if not p.large then
    return
  end
  p.fit = p.fit or fit_of(p)
  p.fitting = not p.fitting
  draw(p)
end

local function notify(message, level)
  boxls.notify(message, level or vim.log.levels.WARN)
end

--- `d`: the difficulty map over the board, or off again. Asked for on the first `d`; a
--- map of other walls, start or target than the board's (the maze was edited since) is
--- not shown.
---@param p boxls.Player
local function toggle_map(p)
  if p.map then
    p.mapping = not p.mapping
    return draw(p)
  end
  if p.asking then
    return
  end
  p.asking = true
  draw(p)
  p.ask_map(function(map, err)
    p.asking = false
    if not vim.api.nvim_win_is_valid(p.win) then
      return
    end
    if map and not difficulty.fits(map, p.replay.cells) then
      map, err = nil, 'the maze changed since :BoxPlay opened it; open it again'
    end
    if not map then
      notify('no difficulty map: ' .. (err or 'no answer'))
    end
    p.map, p.mapping = map, map ~= nil
    draw(p)
  end)
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
  map('f', function()
    toggle_fit(p)
  end)
  map('d', function()
    toggle_map(p)
  end)
  for _, lhs in ipairs({ 'q', '<Esc>' }) do
    map(lhs, function()
      close(p)
    end)
  end
end

--- Opens the player window for `replay`; `ask_map(callback)` asks for its difficulty map.
---@param replay boxls.Replay
---@param title string
---@param ask_map fun(callback: fun(map: boxls.Difficulty?, err: string?))
function M.open_replay(replay, title, ask_map)
  local p = { replay = replay, title = title, frame = 0, top = 0, left = 0, playing = false, fitting = false, mapping = false, asking = false, ask_map = ask_map } --[[@as boxls.Player]]
  index_moves(p)
  p.dead = {}
  for _, d in ipairs(replay.dead or {}) do
    p.dead[key(p, d[1], d[2])] = true
  end
  local max_w, max_h = math.max(20, vim.o.columns - 6), math.max(5, vim.o.lines - 8)
  p.width = math.min(replay.cols, max_w)
  p.height = math.min(replay.rows, max_h)
  p.large = p.width < replay.cols or p.height < replay.rows
  local status_w = p.large and 80 or 0 -- room for the view's rows and columns
  p.base_w = math.min(max_w, math.max(p.width, vim.fn.strdisplaywidth(HELP), vim.fn.strdisplaywidth(title) + 2, 32, status_w))
  p.win_w, p.max_w = p.base_w, max_w
  local win_h = p.height + 2
  p.buf = vim.api.nvim_create_buf(false, true)
  vim.bo[p.buf].bufhidden = 'wipe'
  vim.bo[p.buf].filetype = 'boxplay'
  p.win = vim.api.nvim_open_win(p.buf, true, {
    relative = 'editor',
    row = math.max(0, math.floor((vim.o.lines - win_h) / 2) - 1),
    col = math.max(0, math.floor((vim.o.columns - p.win_w) / 2)),
    width = p.win_w,
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

--- The player window's title: `Maze #k (R×C) · counts`, or `Level k “Title” (R×C) · counts`.
---@param state boxls.MazeState
local function title_of(state)
  local name = string.format('Maze #%d', state.maze)
  if state.format == 'xsb' then
    local title = type(state.title) == 'string' and string.format(' “%s”', state.title) or ''
    name = string.format('Level %d%s', state.maze, title)
  end
  return string.format('%s (%d×%d) · %s', name, state.rows, state.cols, boxls.counts(state))
end

--- :BoxPlay — plays the solution of the maze (or Sokoban level) under the cursor; waits
--- for one still being solved (on `boxls/settled`); says why there is nothing to play.
function M.open()
  boxls.on_solved_maze('; it plays when solved', 'nothing to play: no maze under the cursor', function(client, bufnr, state, retry)
    if state.status ~= 'solved' then
      return notify('nothing to play: ' .. boxls.why_no_solution(bufnr, state))
    end
    local params = {
      textDocument = vim.lsp.util.make_text_document_params(bufnr),
      position = { line = state.headerLine, character = 0 },
      frames = false,
    }
    client:request('boxls/replay', params, function(replay_err, replay)
      if replay_err then
        return notify('boxls/replay failed: ' .. replay_err.message, vim.log.levels.ERROR)
      end
      if type(replay) ~= 'table' then
        -- The text changed between the two requests: ask again about the new version.
        if retry() then
          return
        end
        return notify(string.format('the server sent no replay for %s', title_of(state)))
      end
      local header = { line = state.headerLine, character = 0 }
      M.open_replay(replay, title_of(state), function(callback)
        -- A level with one box and one goal has its maze's map; the server says null else.
        if state.format == 'xsb' and #replay.boxes ~= 1 then
          return callback(nil, 'a level with several boxes has no difficulty map')
        end
        if not vim.api.nvim_buf_is_valid(bufnr) then
          return callback(nil, 'the buffer is gone')
        end
        difficulty.request(client, bufnr, header, callback)
      end)
    end, bufnr)
  end)
end

return M
