-- The difficulty map of a maze as :BoxPlay draws it: the server's `boxls/difficulty`
-- answer (for the maze's player start and target, the optimal pushes and moves if the
-- box started on each free cell, or unsolvable) read as data, cut into at most nine
-- levels of pushes, each with its digit, its shade (BoxlsMap1 … BoxlsMap9) and its line
-- in the legend.
local M = {}

--- The most levels (digits 1–9, shades BoxlsMap1 … BoxlsMap9).
M.LEVELS = 9
--- The glyph of a cell where the box can never be pushed onto the target.
M.UNSOLVABLE = '×'

---@class boxls.Difficulty
---@field maze integer
---@field version integer
---@field rows integer
---@field cols integer
---@field kind string[] per cell (row * cols + col + 1, 0-based row and col): rock, player, target, unsolvable or solved
---@field pushes table<integer, integer> per solved cell, the optimal pushes
---@field moves table<integer, integer> per solved cell, the optimal moves
---@field max integer the most pushes of any solved cell (0: none solvable)
---@field width integer pushes per level: level = ceil(pushes / width)

local function value(x)
  return x ~= vim.NIL and x or nil
end

--- The kind of each letter of the answer's `kinds` rows.
local KINDS = { ['#'] = 'rock', S = 'player', T = 'target', x = 'unsolvable', ['.'] = 'solved' }

--- Reads the server's answer (the manual, "Custom requests": `DifficultyResult`); nil and
--- why when it is not a map.
---@return boxls.Difficulty? map
---@return string? problem
function M.read(answer)
  if type(answer) ~= 'table' then
    return nil, 'the server has no map of this maze'
  end
  local rows, cols = value(answer.rows), value(answer.cols)
  local kinds, pushes, moves = value(answer.kinds), value(answer.pushes), value(answer.moves)
  if type(rows) ~= 'number' or type(cols) ~= 'number' or type(kinds) ~= 'table' or #kinds ~= rows
    or type(pushes) ~= 'table' or #pushes ~= rows or type(moves) ~= 'table' or #moves ~= rows then
    return nil, 'the answer is not a map of the maze'
  end
  local map = { maze = answer.maze, version = answer.version, rows = rows, cols = cols, kind = {}, pushes = {}, moves = {}, max = 0 }
  for r = 1, rows do
    local row = kinds[r]
    if type(row) ~= 'string' or #row ~= cols then
      return nil, string.format('row %d of the map is not %d cells', r - 1, cols)
    end
    for c = 1, cols do
      local i = (r - 1) * cols + c
      local kind = KINDS[row:sub(c, c)]
      if not kind then
        return nil, string.format('cell %d,%d: unknown kind %q', r - 1, c - 1, row:sub(c, c))
      end
      if kind == 'solved' then
        local p, m = value((pushes[r] or {})[c]), value((moves[r] or {})[c])
        if type(p) ~= 'number' or type(m) ~= 'number' then
          return nil, string.format('cell %d,%d is solvable but has no counts', r - 1, c - 1)
        end
        map.pushes[i], map.moves[i] = p, m
        map.max = math.max(map.max, p)
      end
      map.kind[i] = kind
    end
  end
  map.width = math.max(1, math.ceil(map.max / M.LEVELS))
  return map
end

--- Whether `map` is a map of the maze drawn as `cells` (its rows, `# . S B T`, and a
--- space outside a level's walls): the same size, rock where the rows have `#` (or the
--- space), the player's start on S, the target on T.
---@param map boxls.Difficulty
---@param cells string[]
function M.fits(map, cells)
  if #cells ~= map.rows then
    return false
  end
  local want = { ['#'] = 'rock', [' '] = 'rock', S = 'player', T = 'target' }
  for r, row in ipairs(cells) do
    if #row ~= map.cols then
      return false
    end
    for c = 1, #row do
      local kind = map.kind[(r - 1) * map.cols + c]
      local wanted = want[row:sub(c, c)]
      if (wanted or kind == 'rock' or kind == 'player' or kind == 'target') and kind ~= wanted then
        return false
      end
    end
  end
  return true
end

--- The level (1 … 9) of `pushes` pushes: the pushes themselves when the hardest cell
--- needs at most nine, else ceil(pushes / width).
---@param map boxls.Difficulty
function M.level(map, pushes)
  return math.max(1, math.ceil(pushes / map.width))
end

--- The shade of a level: the nine shades spread over the levels the map uses, so a
--- map whose hardest cell needs 3 pushes still goes from the first shade to the last.
---@param map boxls.Difficulty
function M.shade(map, level)
  local top = M.level(map, math.max(1, map.max))
  return 'BoxlsMap' .. math.max(1, math.min(M.LEVELS, math.ceil(level * M.LEVELS / top)))
end

--- What the map shows at maze cell (r, c), 0-based: nil for a cell it says nothing
--- about (rock, the player's start, the target), else its glyph and highlight group.
---@param map boxls.Difficulty
---@return string? glyph
---@return string? group
function M.cell(map, r, c)
  local i = r * map.cols + c + 1
  local kind = map.kind[i]
  if kind == 'unsolvable' then
    return M.UNSOLVABLE, 'BoxlsMapUnsolvable'
  elseif kind == 'solved' then
    local level = M.level(map, map.pushes[i])
    return tostring(level), M.shade(map, level)
  end
  return nil, nil
end

--- The legend as items, each a list of runs { text, group }: what the digits say, each
--- level's digit in its shade (with the pushes it stands for when that is more than
--- one), then the unsolvable mark. Shown with a space between items, wrapped between
--- them.
---@param map boxls.Difficulty
---@return { [1]: string, [2]: string? }[][]
function M.legend(map)
  local items = { { { 'pushes if the box starts here:' } } }
  local top = map.max > 0 and M.level(map, map.max) or 0
  for level = 1, top do
    local item = { { tostring(level), M.shade(map, level) } }
    if map.width > 1 then
      local lo, hi = (level - 1) * map.width + 1, math.min(map.max, level * map.width)
      item[2] = { lo == hi and string.format(' %d', lo) or string.format(' %d–%d', lo, hi) }
    end
    items[#items + 1] = item
  end
  if top == 0 then
    items[#items + 1] = { { 'none solvable' } }
  end
  items[#items + 1] = { { '·' } }
  items[#items + 1] = { { M.UNSOLVABLE, 'BoxlsMapUnsolvable' }, { ' unsolvable' } }
  return items
end

--- `boxls/difficulty`: the map of the maze at `position`.
---@param callback fun(map: boxls.Difficulty?, err: string?)
function M.request(client, bufnr, position, callback)
  local params = { textDocument = vim.lsp.util.make_text_document_params(bufnr), position = position }
  client:request('boxls/difficulty', params, function(err, answer)
    if err then
      return callback(nil, 'boxls/difficulty failed: ' .. err.message)
    end
    callback(M.read(answer))
  end, bufnr)
end

return M
