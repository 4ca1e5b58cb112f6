" Syntax for .box maze files (Pushing Boxes); the boxls server's semantic tokens refine it.
" The Boxls* groups are defined by plugin/boxls.lua.
if exists('b:current_syntax')
  finish
endif

syn match boxBadChar   /[^#.SBT \t]/ contained
syn match boxRock      /#/ contained
syn match boxFree      /\./ contained
syn match boxPlayer    /S/ contained
syn match boxBox       /B/ contained
syn match boxTarget    /T/ contained
syn match boxRow       /^\s*[^;[:space:]].*$/ contains=boxRock,boxFree,boxPlayer,boxBox,boxTarget,boxBadChar
syn match boxHeader    /^\s*\d\+\s\+\d\+\s*$/ contains=boxNumber
syn match boxNumber    /\d\+/ contained
syn match boxTerminator /^\s*0\s\+0\s*$/
syn match boxComment   /^\s*;.*$/
syn match boxWalk      /[nsew]\+/ contained
syn match boxPush      /[NSEW]\+/ contained
syn match boxBadMove   /[^nsewNSEW \t]/ contained
syn region boxSolution matchgroup=boxSolutionKey start=/^\s*;\s*solution\s*:/ end=/$/ oneline contains=boxWalk,boxPush,boxBadMove

hi def link boxRock       Keyword
hi def link boxFree       Delimiter
hi def link boxPlayer     BoxlsPlayer
hi def link boxBox        BoxlsBox
hi def link boxTarget     BoxlsTarget
hi def link boxBadChar    Error
hi def link boxNumber     Number
hi def link boxTerminator Special
hi def link boxComment    Comment
hi def link boxSolution   Comment
hi def link boxSolutionKey Comment
hi def link boxBadMove    Error
hi def link boxWalk       Function
hi def link boxPush       Statement

let b:current_syntax = 'box'
