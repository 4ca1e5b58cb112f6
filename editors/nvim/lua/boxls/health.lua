-- :checkhealth boxls — is everything in place for `.box` files to get the server?
local M = {}

local health = vim.health

local function check_neovim()
  if vim.fn.has('nvim-0.11') == 1 then
    health.ok('Neovim ' .. tostring(vim.version()))
  else
    health.error('Neovim 0.11 or newer is required (vim.lsp.config / vim.lsp.enable)', { 'Upgrade Neovim' })
  end
end

local function check_config()
  local config = vim.lsp.config.boxls
  if not config then
    health.error('no `boxls` language server config (lsp/boxls.lua is not on the runtimepath)', {
      "Add the plugin folder: vim.opt.runtimepath:append('/path/to/boxls/editors/nvim')",
    })
    return
  end
  if vim.lsp.is_enabled('boxls') then
    health.ok('the boxls config is enabled')
  else
    health.warn('the boxls config is not enabled: .box files will not start the server', {
      "Call require('boxls').setup() (or vim.lsp.enable('boxls')) in init.lua",
    })
  end
  if vim.filetype.match({ filename = 'maze.box' }) == 'box' then
    health.ok('*.box files have filetype `box`')
  else
    health.error('*.box files do not get filetype `box` (ftdetect/box.lua is not loaded)')
  end
  if vim.filetype.match({ filename = 'level.xsb' }) == 'sokoban' and vim.filetype.match({ filename = 'level.sok' }) == 'sokoban' then
    health.ok('*.xsb and *.sok files have filetype `sokoban`')
  else
    health.error('*.xsb/*.sok files do not get filetype `sokoban` (ftdetect/sokoban.lua is not loaded)')
  end
end

local function check_executable()
  local boxls = require('boxls')
  local exe, problem = boxls.executable_problem()
  if problem then
    health.error(problem, {
      'Install it: `cargo install --path .` in the boxls repository (puts it in ~/.cargo/bin)',
      "Or give its path: require('boxls').setup({ cmd = '/path/to/boxls' })",
    })
    return
  end
  if not exe then
    health.info('the boxls config runs a custom `cmd` function: not checked')
    return
  end
  local path = vim.fn.exepath(exe)
  local ok, result = pcall(function()
    return vim.system({ path, '--version' }, { text = true }):wait(5000)
  end)
  if ok and result.code == 0 then
    health.ok(string.format('%s (%s)', vim.trim(result.stdout), path))
  else
    health.error(string.format('`%s --version` failed: %s', path, ok and vim.trim(result.stderr or '') or result), {
      'Is it the boxls language server? Rebuild or reinstall it',
    })
  end
end

local function check_clients()
  local clients = vim.lsp.get_clients({ name = 'boxls' })
  if #clients == 0 then
    health.info('no boxls server is running (one starts when a .box file is opened)')
    return
  end
  for _, client in ipairs(clients) do
    local buffers = vim.tbl_keys(client.attached_buffers)
    local info = client.server_info or {}
    health.ok(string.format(
      'server %s %s (client %d) serves %d buffer%s; position encoding %s',
      info.name or 'boxls',
      info.version or '?',
      client.id,
      #buffers,
      #buffers == 1 and '' or 's',
      client.offset_encoding
    ))
  end
end

function M.check()
  health.start('boxls: Neovim and the plugin')
  check_neovim()
  check_config()
  health.start('boxls: the language server')
  check_executable()
  check_clients()
end

return M
