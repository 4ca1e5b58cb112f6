-- Inlay hints that change without an edit, drawn as they change.
--
-- boxls answers a hint request at once: `solving…` for a maze whose solve is still
-- running, then sends `workspace/inlayHint/refresh` when it finishes. Neovim 0.11
-- (runtime/lua/vim/lsp/inlay_hint.lua) draws a line's hints once per buffer version
-- (`bufstate.applied[lnum] = version`). Its refresh handler forgets what it drew and
-- re-requests; but if the screen is redrawn before the answer arrives (the diagnostics
-- published with the results redraw the signs), the old `solving…` is drawn again for
-- the same version, and the new answer, for that same version, is never drawn:
-- `vim.lsp.inlay_hint.get()` has the counts, the screen keeps `solving…`.
--
-- So, for the boxls client, an answer that differs from the previous one for the same
-- buffer version re-enables the buffer's hints. That starts a fresh per-buffer state
-- (nothing drawn is marked applied, nothing is drawn until the answer) and requests the
-- hints again; the next answer is drawn. An identical answer does nothing, so this ends.
local M = {}

--- The last answer per buffer: { version = buffer version, key = its hints as text }.
---@type table<integer, { version: integer, key: string }>
local last = {}

---@param result lsp.InlayHint[]
local function key_of(result)
  local parts = {}
  for _, hint in ipairs(result) do
    local label = hint.label
    if type(label) == 'table' then
      local values = {}
      for _, part in ipairs(label) do
        values[#values + 1] = part.value
      end
      label = table.concat(values)
    end
    parts[#parts + 1] = string.format('%d:%d:%s', hint.position.line, hint.position.character, label)
  end
  table.sort(parts)
  return table.concat(parts, '\n')
end

--- `textDocument/inlayHint` handler for the boxls client: Neovim's own, then a redraw
--- from scratch when the hints changed for an unchanged buffer version.
---@param err? lsp.ResponseError
---@param result? lsp.InlayHint[]
---@param ctx lsp.HandlerContext
function M.on_inlayhint(err, result, ctx, config)
  vim.lsp.handlers['textDocument/inlayHint'](err, result, ctx, config)
  local bufnr = ctx.bufnr
  if err or not bufnr or not vim.api.nvim_buf_is_loaded(bufnr) then
    return
  end
  if vim.lsp.util.buf_versions[bufnr] ~= ctx.version then
    return -- a stale answer; Neovim dropped it too
  end
  local key = key_of(result or {})
  local previous = last[bufnr]
  last[bufnr] = { version = ctx.version, key = key }
  if previous and previous.version == ctx.version and previous.key ~= key then
    if vim.lsp.inlay_hint.is_enabled({ bufnr = bufnr }) then
      vim.lsp.inlay_hint.enable(true, { bufnr = bufnr })
    end
  end
end

vim.api.nvim_create_autocmd('BufWipeout', {
  group = vim.api.nvim_create_augroup('boxls.hints', { clear = true }),
  callback = function(args)
    last[args.buf] = nil
  end,
})

return M
