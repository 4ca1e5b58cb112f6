;;; mode-test.el --- Batch tests of boxls-mode and boxls-sokoban-mode: file association, faces, comments, Eglot entry -*- lexical-binding: t -*-

;; Run from the repository root (.ci/editors does):
;;   emacs -batch -L editors/emacs -l editors/emacs/test/mode-test.el -f ert-run-tests-batch-and-exit
;; It needs Eglot (Debian: elpa-eglot) on the package path: run without -Q, with a
;; throw-away HOME.

;;; Code:

(require 'ert)
(package-initialize)
(require 'boxls-mode)

(defconst boxls-test-text
  "; Maze #3 of the classic sample
7 11
###########
#T##......#
#.#.#..####
#....B....#
#.######..#
#.....S...#
###########
; solution: eennwwWWWWeeeeeesswwwwwwwnNN
0 0
"
  "The SPEC's example: a comment, a header, rows, a solution line, the terminator.")

(defmacro boxls-test-with-buffer (&rest body)
  "Run BODY in a fontified `boxls-mode' buffer holding `boxls-test-text'."
  (declare (indent 0))
  `(with-temp-buffer
     (insert boxls-test-text)
     (boxls-mode)
     (font-lock-ensure)
     ,@body))

(defun boxls-test-face-at (line column)
  "The face at 1-based LINE, 0-based COLUMN of the current buffer."
  (save-excursion
    (goto-char (point-min))
    (forward-line (1- line))
    (forward-char column)
    (get-text-property (point) 'face)))

(defmacro boxls-test-with-file (&rest body)
  "Run BODY in a buffer visiting a new .box file holding `boxls-test-text'."
  (declare (indent 0))
  `(let ((file (make-temp-file "boxls-test" nil ".box" boxls-test-text)))
     (unwind-protect
         (with-current-buffer (find-file-noselect file)
           (unwind-protect (progn ,@body)
             (kill-buffer)))
       (delete-file file))))

(ert-deftest boxls-mode-auto-mode ()
  "A .box file opens in `boxls-mode'."
  (boxls-test-with-file
    (should (eq major-mode 'boxls-mode))))

(ert-deftest boxls-mode-faces-of-cells ()
  "Rock, floor, S, B and T each have their own face, in rows."
  (boxls-test-with-buffer
    (should (eq (boxls-test-face-at 3 0) 'boxls-rock-face))
    (should (eq (boxls-test-face-at 4 4) 'boxls-floor-face))
    (should (eq (boxls-test-face-at 8 6) 'boxls-player-face))
    (should (eq (boxls-test-face-at 6 5) 'boxls-box-face))
    (should (eq (boxls-test-face-at 4 1) 'boxls-target-face))
    (let ((faces (list 'boxls-rock-face 'boxls-floor-face 'boxls-player-face
                       'boxls-box-face 'boxls-target-face)))
      ;; Five faces built differently (no two inherit the same face with the same
      ;; weight; the screen test sees their colours).
      (should (= 5 (length (delete-dups
                            (mapcar (lambda (f)
                                      (list (face-attribute f :inherit)
                                            (face-attribute f :weight)))
                                    faces))))))))

(ert-deftest boxls-mode-faces-of-lines ()
  "Headers, the terminator, comments and solution lines."
  (boxls-test-with-buffer
    (should (eq (boxls-test-face-at 2 0) 'boxls-header-face))
    (should (eq (boxls-test-face-at 2 3) 'boxls-header-face))
    (should (eq (boxls-test-face-at 11 0) 'boxls-header-face))
    ;; A comment is a comment, `#' and `.' in it included.
    (should (eq (boxls-test-face-at 1 0) 'font-lock-comment-delimiter-face))
    (should (eq (boxls-test-face-at 1 7) 'font-lock-comment-face))
    (should (eq (boxls-test-face-at 1 2) 'font-lock-comment-face))
    ;; The solution line is its own, moves included (S, B, T letters are not cells there).
    (should (eq (boxls-test-face-at 10 0) 'boxls-solution-face))
    (should (eq (boxls-test-face-at 10 12) 'boxls-solution-face))
    (should (eq (boxls-test-face-at 10 20) 'boxls-solution-face))))

(ert-deftest boxls-mode-comment-syntax ()
  "`;' comments: syntax, `comment-region' and M-;."
  (boxls-test-with-buffer
    (should (equal comment-start "; "))
    (goto-char (point-min))
    (forward-char 5)
    (should (nth 4 (syntax-ppss)))
    (forward-line 2)
    (should-not (nth 4 (syntax-ppss)))
    ;; Commenting out a row makes it `; ' + the row; uncommenting restores it.
    (let ((row (buffer-substring (line-beginning-position) (line-end-position))))
      (comment-region (line-beginning-position) (line-end-position))
      (should (equal (buffer-substring (line-beginning-position) (line-end-position))
                     (concat "; " row)))
      (uncomment-region (line-beginning-position) (line-end-position))
      (should (equal (buffer-substring (line-beginning-position) (line-end-position))
                     row)))
    ;; M-; at the end of a row adds a comment there.
    (end-of-line)
    (call-interactively #'comment-dwim)
    (should (looking-back "; " (line-beginning-position)))))

(ert-deftest boxls-mode-no-wrapping ()
  "Rows are never wrapped on screen."
  (boxls-test-with-buffer
    (should truncate-lines)))

(ert-deftest boxls-mode-eglot-entry ()
  "Eglot runs `boxls-program lsp' for a .box buffer (its own guess, as \\[eglot] does)."
  (require 'eglot)
  (boxls-test-with-file
    (should (equal (nth 3 (eglot--guess-contact)) '("boxls" "lsp")))
    (let ((boxls-program "/opt/boxls/bin/boxls"))
      (should (equal (nth 3 (eglot--guess-contact)) '("/opt/boxls/bin/boxls" "lsp"))))))

;;; Sokoban levels

(defconst boxls-test-level
  "; Level #1 of two
Title: The #1 level.
Author: boxls
#######
#     #
# $$  #
# @   #
#..  *#
#######
Solution: 2rUl
  dD
:: a raw comment
3#|#+*#|3#
"
  "A level with metadata, a solution over two lines, a comment and a run-length row.")

(defmacro boxls-test-with-level (&rest body)
  "Run BODY in a fontified `boxls-sokoban-mode' buffer holding `boxls-test-level'."
  (declare (indent 0))
  `(with-temp-buffer
     (insert boxls-test-level)
     (boxls-sokoban-mode)
     (font-lock-ensure)
     ,@body))

(ert-deftest boxls-sokoban-mode-auto-mode ()
  "A .xsb and a .sok file open in `boxls-sokoban-mode'; a .box file does not."
  (dolist (ext '(".xsb" ".sok"))
    (let ((file (make-temp-file "boxls-test" nil ext boxls-test-level)))
      (unwind-protect
          (with-current-buffer (find-file-noselect file)
            (unwind-protect (should (eq major-mode 'boxls-sokoban-mode))
              (kill-buffer)))
        (delete-file file))))
  (boxls-test-with-file
    (should (eq major-mode 'boxls-mode))))

(ert-deftest boxls-sokoban-mode-faces ()
  "Board cells in the .box faces, only in rows; metadata, solutions and comments."
  (boxls-test-with-level
    (should (eq (boxls-test-face-at 4 0) 'boxls-rock-face))
    (should (eq (boxls-test-face-at 6 2) 'boxls-box-face))
    (should (eq (boxls-test-face-at 7 2) 'boxls-player-face))
    (should (eq (boxls-test-face-at 8 1) 'boxls-target-face))
    (should (eq (boxls-test-face-at 8 5) 'boxls-box-face))
    ;; The run-length row: a count, walls, the player and a box on goals.
    (should (eq (boxls-test-face-at 13 0) 'boxls-header-face))
    (should (eq (boxls-test-face-at 13 1) 'boxls-rock-face))
    (should (eq (boxls-test-face-at 13 4) 'boxls-player-face))
    (should (eq (boxls-test-face-at 13 5) 'boxls-box-face))
    ;; `#' and `.' in a title or a comment are not cells.
    (should (eq (boxls-test-face-at 2 0) 'font-lock-keyword-face))
    (should (eq (boxls-test-face-at 2 11) 'font-lock-function-name-face))
    (should (eq (boxls-test-face-at 2 19) 'font-lock-function-name-face))
    (should (memq (boxls-test-face-at 1 8) '(font-lock-comment-face font-lock-comment-delimiter-face)))
    (should (eq (boxls-test-face-at 3 0) 'font-lock-keyword-face))
    ;; The solution, on its line and the line under it.
    (should (eq (boxls-test-face-at 10 0) 'boxls-solution-face))
    (should (eq (boxls-test-face-at 11 3) 'boxls-solution-face))
    (should (eq (boxls-test-face-at 12 3) 'font-lock-comment-face))))

(ert-deftest boxls-sokoban-mode-comments-and-rows ()
  "`;' comments, M-; on a row, rows never wrapped."
  (boxls-test-with-level
    (should (equal comment-start "; "))
    (should truncate-lines)
    (goto-char (point-min))
    (forward-line 3)
    (let ((row (buffer-substring (line-beginning-position) (line-end-position))))
      (comment-region (line-beginning-position) (line-end-position))
      (should (equal (buffer-substring (line-beginning-position) (line-end-position))
                     (concat "; " row))))))

(ert-deftest boxls-sokoban-mode-eglot-entry ()
  "Eglot runs `boxls-program lsp' for a level, with language id `sokoban';
a .box buffer gets its own server with language id `box'."
  (require 'eglot)
  (let ((file (make-temp-file "boxls-test" nil ".xsb" boxls-test-level)))
    (unwind-protect
        (with-current-buffer (find-file-noselect file)
          (unwind-protect
              (let ((guess (eglot--guess-contact)))
                (should (equal (nth 0 guess) '(boxls-sokoban-mode)))
                (should (equal (nth 3 guess) '("boxls" "lsp")))
                (should (equal (nth 4 guess) "sokoban")))
            (kill-buffer)))
      (delete-file file)))
  (boxls-test-with-file
    (let ((guess (eglot--guess-contact)))
      (should (equal (nth 0 guess) '(boxls-mode)))
      (should (equal (nth 4 guess) "box")))))

;;; mode-test.el ends here
