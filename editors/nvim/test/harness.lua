-- What both Neovim tests share: checks counted and printed one per line, then a
-- `NAME: N passed, M failed` summary.
local M = {}

function M.new(name)
  local self = { passed = 0, failed = 0 }

  function self.log(fmt, ...)
    io.stdout:write(string.format(fmt, ...) .. '\n')
    io.stdout:flush()
  end

  function self.check(ok, what, detail)
    if ok then
      self.passed = self.passed + 1
      self.log('ok    %s', what)
    else
      self.failed = self.failed + 1
      self.log('FAIL  %s%s', what, detail and ('\n        ' .. tostring(detail):gsub('\n', '\n        ')) or '')
    end
    return ok
  end

  -- Prints the summary; whether every check passed.
  function self.summary()
    self.log('%s: %d passed, %d failed', name, self.passed, self.failed)
    return self.failed == 0
  end

  return self
end

return M
