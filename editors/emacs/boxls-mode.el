;;; boxls-mode.el --- Major mode for .box maze files, with the boxls language server -*- lexical-binding: t -*-

;; Copyright (C) 2026 The boxls authors

;; Author: The boxls authors
;; Version: 0.1.0
;; Package-Requires: ((emacs "28.1") (eglot "1.9"))
;; Keywords: languages, games
;; SPDX-License-Identifier: MIT OR Apache-2.0

;; This file is not part of GNU Emacs.

;;; Commentary:

;; `boxls-mode' edits `.box' files: mazes of the single-box "Pushing Boxes" puzzle
;; (POJ 1475).  It colours the cells (rock `#', floor `.', the player `S', the box
;; `B', the target `T'), the `rows cols' headers, comments and `; solution:' lines;
;; `;' starts a comment (M-; and `comment-region' work).
;;
;; The language server `boxls lsp' does the rest through Eglot: diagnostics in
;; Flymake, hover (the optimal counts, the moves and the maze drawn) in ElDoc, and
;; code actions (`M-x eglot-code-actions': "Insert optimal solution", the quick fixes).
;;
;; `boxls-sokoban-mode' edits Sokoban levels (`.xsb', `.sok'): the board cells in the
;; same faces, metadata, comments and solutions; Eglot runs the same server on them
;; (language id `sokoban'), so Flymake shows the level checks and the deadlocks
;; (`frozen-boxes', `dead-square', ...) as you type.
;;
;; Set-up:
;;
;;   (add-to-list 'load-path "/path/to/boxls/editors/emacs")
;;   (require 'boxls-mode)
;;
;; then `M-x eglot' in a .box buffer, or start it on every .box file with
;; (add-hook 'boxls-mode-hook #'eglot-ensure).  `boxls' must be on `exec-path',
;; or `boxls-program' set to the binary.

;;; Code:

(defgroup boxls nil
  "Editing .box maze files with the boxls language server."
  :group 'languages
  :prefix "boxls-")

(defcustom boxls-program "boxls"
  "The boxls executable: a name looked up on variable `exec-path', or a file name.
Eglot runs it as `BOXLS-PROGRAM lsp'; a change applies to the next
\\[eglot]."
  :type 'string
  :group 'boxls)

(defface boxls-rock-face
  '((t :inherit font-lock-builtin-face :weight bold))
  "Face for rock cells `#'."
  :group 'boxls)

(defface boxls-floor-face
  '((t :inherit shadow))
  "Face for free cells `.'."
  :group 'boxls)

(defface boxls-player-face
  '((t :inherit font-lock-function-name-face :weight bold))
  "Face for the player's start `S'."
  :group 'boxls)

(defface boxls-box-face
  '((t :inherit font-lock-type-face :weight bold))
  "Face for the box's start `B'."
  :group 'boxls)

(defface boxls-target-face
  '((t :inherit font-lock-warning-face))
  "Face for the target `T'."
  :group 'boxls)

(defface boxls-header-face
  '((t :inherit font-lock-constant-face))
  "Face for a maze's `rows cols' header and the terminator `0 0'."
  :group 'boxls)

(defface boxls-solution-face
  '((t :inherit font-lock-doc-face))
  "Face for a `; solution: MOVES' line."
  :group 'boxls)

(defconst boxls--header-regexp "^[ \t]*[0-9]+[ \t]+[0-9]+[ \t]*$"
  "A header line: two decimal integers (the format's definition).")

(defconst boxls--solution-regexp "^[ \t]*;[ \t]*solution:.*$"
  "A `; solution:' line.")

(defconst boxls-font-lock-keywords
  `((,boxls--solution-regexp 0 'boxls-solution-face t)
    (,boxls--header-regexp . 'boxls-header-face)
    ("#" . 'boxls-rock-face)
    ("\\." . 'boxls-floor-face)
    ("S" . 'boxls-player-face)
    ("B" . 'boxls-box-face)
    ("T" . 'boxls-target-face))
  "Font-lock rules for `boxls-mode'.
Comments are fontified by syntax first, and only the solution rule
overrides them; cell rules apply to the rest (rows: headers and the
terminator have no cell characters).")

(defvar boxls-mode-syntax-table
  (let ((table (make-syntax-table)))
    ;; `;' to the end of the line is a comment.
    (modify-syntax-entry ?\; "<" table)
    (modify-syntax-entry ?\n ">" table)
    ;; Cells are symbol constituents: a row is one symbol for word motion.
    (dolist (cell '(?# ?. ?S ?B ?T))
      (modify-syntax-entry cell "_" table))
    ;; No strings or parentheses in this format.
    (modify-syntax-entry ?\" "." table)
    table)
  "Syntax table for `boxls-mode'.")

;;;###autoload
(define-derived-mode boxls-mode prog-mode "Box"
  "Major mode for .box maze files (the single-box Pushing Boxes puzzle).
Start the boxls language server with \\[eglot].

\\{boxls-mode-map}"
  :syntax-table boxls-mode-syntax-table
  (setq-local comment-start "; ")
  (setq-local comment-end "")
  (setq-local comment-start-skip ";+[ \t]*")
  (setq-local comment-use-syntax t)
  ;; Rows are long and their columns matter: never wrap them, never fill them.
  (setq-local truncate-lines t)
  (setq-local indent-tabs-mode nil)
  (setq-local font-lock-defaults '(boxls-font-lock-keywords nil nil)))

;;;###autoload
(add-to-list 'auto-mode-alist '("\\.box\\'" . boxls-mode))

;;; Sokoban levels

(defconst boxls-sokoban--row-regexp
  "^[ \t]*[-_ #@+$*.|0-9]*[-_#@+$*.][-_ #@+$*.|0-9]*$"
  "A board line as the Sokoban tools tell one: cells, run-length counts and `|'.")

(defconst boxls-sokoban--moves-regexp
  "^[ \t]*[0-9]*[udlrUDLR][udlrUDLR0-9 \t]*$"
  "A line of LURD moves (under a `Solution:' line).")

(defun boxls-sokoban--cells (regexp)
  "A font-lock matcher for REGEXP in board lines only.
Titles and comments hold `#' and `.' too; only rows are cells."
  (lambda (limit)
    (let (found)
      (while (and (not found) (re-search-forward regexp limit t))
        (setq found (save-excursion
                      (save-match-data
                        (beginning-of-line)
                        (looking-at boxls-sokoban--row-regexp)))))
      found)))

(defconst boxls-sokoban-font-lock-keywords
  `(("^[ \t]*::.*$" 0 'font-lock-comment-face)
    ("^[ \t]*\\([Ss]olution[^:\n]*\\):.*$" 0 'boxls-solution-face)
    (,boxls-sokoban--moves-regexp 0 'boxls-solution-face)
    ("^[ \t]*\\([Tt]itle\\)[ \t]*:[ \t]*\\(.*\\)$"
     (1 'font-lock-keyword-face) (2 'font-lock-function-name-face))
    ("^[ \t]*\\([A-Za-z][-A-Za-z0-9 _().]*\\)[ \t]*:" 1 'font-lock-keyword-face)
    (,(boxls-sokoban--cells "[0-9]+") . 'boxls-header-face)
    (,(boxls-sokoban--cells "#") . 'boxls-rock-face)
    (,(boxls-sokoban--cells "[-_]") . 'boxls-floor-face)
    (,(boxls-sokoban--cells "[@+]") . 'boxls-player-face)
    (,(boxls-sokoban--cells "[$*]") . 'boxls-box-face)
    (,(boxls-sokoban--cells "\\.") . 'boxls-target-face))
  "Font-lock rules for `boxls-sokoban-mode'.
The cells of board rows in the `.box' faces (a wall as rock, `@' and `+'
as the player, `$' and `*' as a box, `.' as a goal), run-length counts
as headers; `Key:' metadata, titles, `::' comments and solutions.")

(defvar boxls-sokoban-mode-syntax-table
  (let ((table (make-syntax-table)))
    ;; `;' to the end of the line is a comment (`::' lines are fontified as ones).
    (modify-syntax-entry ?\; "<" table)
    (modify-syntax-entry ?\n ">" table)
    (dolist (cell '(?# ?. ?@ ?+ ?$ ?* ?- ?_))
      (modify-syntax-entry cell "_" table))
    (modify-syntax-entry ?\" "." table)
    table)
  "Syntax table for `boxls-sokoban-mode'.")

;;;###autoload
(define-derived-mode boxls-sokoban-mode prog-mode "Sokoban"
  "Major mode for Sokoban level files (`.xsb', `.sok': many boxes).
Start the boxls language server with \\[eglot]: it reads the buffer
as levels (language id `sokoban') and reports deadlocks as you type.

\\{boxls-sokoban-mode-map}"
  :syntax-table boxls-sokoban-mode-syntax-table
  (setq-local comment-start "; ")
  (setq-local comment-end "")
  (setq-local comment-start-skip ";+[ \t]*")
  (setq-local comment-use-syntax t)
  (setq-local truncate-lines t)
  (setq-local indent-tabs-mode nil)
  (setq-local font-lock-defaults '(boxls-sokoban-font-lock-keywords nil nil)))

;;;###autoload
(add-to-list 'auto-mode-alist '("\\.\\(?:xsb\\|sok\\)\\'" . boxls-sokoban-mode))

(defun boxls-eglot-contact (&optional _interactive)
  "Return the command for Eglot to run in a .box or Sokoban level buffer.
That is `boxls-program' and the argument `lsp'."
  (list boxls-program "lsp"))

(defvar eglot-server-programs)

;; One entry per mode: Eglot 1.9 sends one language id per server, and the server
;; reads a document by it (`box', or `sokoban' for levels).  Each mode is given as a
;; list of one (MODE :language-id ID): Eglot 1.9 would count the keyword and the id
;; as managed modes of a bare (MODE :language-id ID).
;;;###autoload
(with-eval-after-load 'eglot
  (add-to-list 'eglot-server-programs
               '(((boxls-sokoban-mode :language-id "sokoban")) . boxls-eglot-contact))
  (add-to-list 'eglot-server-programs
               '(((boxls-mode :language-id "box")) . boxls-eglot-contact)))

(provide 'boxls-mode)

;;; boxls-mode.el ends here
