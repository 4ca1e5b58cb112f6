;;; screen.el --- Screen test of boxls-mode: a real Emacs in a real terminal (tmux) -*- lexical-binding: t -*-

;; A real `emacs -nw' (Debian's emacs-nox with elpa-eglot) in a tmux terminal of
;; 160x45 cells and 256 colours, configured as the manual's Emacs section says,
;; driven by keys and checked on what the terminal shows: the colours of the cells,
;; Eglot connecting, Flymake's diagnostics and their messages, ElDoc's hover on a
;; header, `eglot-code-actions' writing the optimal solution, and `boxls-program'.
;; Every expected value comes from the `boxls' CLI (the same core), never from a copy
;; of the server's English.
;;
;; Run from the repository root with `boxls' first on PATH (screen.sh does):
;;   emacs -Q -batch -l editors/emacs/test/screen.el
;; Environment: BOXLS_SCREEN_EMACS    the Emacs to run in the terminal (default: emacs)
;;              BOXLS_SCREEN_OUT      a folder for the captured screens (default: none)
;;              BOXLS_SCREEN_TIMEOUT  seconds to wait for each expected screen (60)
;;
;; It prints one line per check, then `emacs-screen: N passed, M failed', and exits
;; non-zero on any failure.  Waits poll the screen every 0.2 s; nothing is timed.

;;; Code:

(require 'cl-lib)
(require 'subr-x)

(defconst screen-width 160)
(defconst screen-height 45)
(defconst screen-timeout
  (string-to-number (or (getenv "BOXLS_SCREEN_TIMEOUT") "60")))
(defconst screen-root default-directory)
(defconst screen-emacs (or (getenv "BOXLS_SCREEN_EMACS") "emacs"))
(defconst screen-out (let ((d (getenv "BOXLS_SCREEN_OUT")))
                       (and d (not (string-empty-p d)) (file-name-as-directory d))))
(defconst screen-tmp (file-name-as-directory (make-temp-file "boxls-emacs-screen" t)))
(defvar screen-sessions 0 "How many terminals this test started.")
(defvar screen-socket nil
  "The current terminal's tmux socket: a new server (and socket) for each session,
so that a new one never races the previous one's shutdown.")
(defvar screen-server-pid nil "The current terminal's tmux server process id.")

(defvar screen-passed 0)
(defvar screen-failed 0)

(defun screen-log (fmt &rest args)
  ;; On stderr: unbuffered in batch mode, so a killed run still shows how far it got.
  (message "%s" (apply #'format fmt args)))

(defun screen-check (ok what &optional detail)
  "Count and print one check: OK, WHAT it checks, DETAIL shown on failure."
  (if ok
      (progn (setq screen-passed (1+ screen-passed))
             (screen-log "ok    %s" what))
    (setq screen-failed (1+ screen-failed))
    (screen-log "FAIL  %s%s" what
                (if detail
                    (concat "\n        "
                            (replace-regexp-in-string "\n" "\n        " (format "%s" detail)))
                  "")))
  ok)

;;;; The terminal: a private tmux server, one session running Emacs.

(defun screen-tmux (&rest args)
  "Run tmux on this test's socket with ARGS; its output.  An error if it fails."
  (with-temp-buffer
    (let ((code (apply #'call-process "tmux" nil t nil "-S" screen-socket args)))
      (unless (eq code 0)
        (error "tmux %s: %s" (string-join args " ") (buffer-string)))
      (buffer-string))))

(defun screen-lines ()
  "The terminal's lines as text, trailing blanks removed."
  (mapcar (lambda (l) (string-trim-right l))
          (split-string (screen-tmux "capture-pane" "-p" "-t" "emacs") "\n")))

(defun screen-ansi-lines ()
  "The terminal's lines with their SGR colour escapes."
  (split-string (screen-tmux "capture-pane" "-p" "-e" "-t" "emacs") "\n"))

(defun screen-text (&optional lines)
  (string-join (or lines (screen-lines)) "\n"))

(defun screen-grid ()
  "The terminal's cells: a list of lines, each a list of (CHAR . STYLE), STYLE a
plist :fg :bg :bold :underline from the SGR escapes tmux reports (colours as their
parameters, nil for default).  tmux sends only changes, and an attribute set on one
line holds on the next ones until changed: the whole screen is read in order."
  (let* ((text (string-join (screen-ansi-lines) "\n"))
         (i 0) (n (length text)) fg bg bold underline line lines)
    (while (< i n)
      (cond
       ((eq (string-match "\e\\[\\([0-9;:]*\\)m" text i) i)
        (let* ((end (match-end 0)) ; before split-string changes the match data
               (ps (mapcar #'string-to-number
                           (split-string (match-string 1 text) "[;:]"))))
          (when (null ps) (setq ps '(0)))
          (while ps
            (let ((p (pop ps)))
              (cond ((= p 0) (setq fg nil bg nil bold nil underline nil))
                    ((= p 1) (setq bold t))
                    ((= p 22) (setq bold nil))
                    ((= p 4) (setq underline t))
                    ((= p 24) (setq underline nil))
                    ((memq p '(38 48 58))
                     (let* ((k (if (eql (car ps) 5) 2 4))
                            (colour (mapconcat #'number-to-string (seq-take ps k) ";")))
                       (setq ps (nthcdr k ps))
                       (cond ((= p 38) (setq fg colour))
                             ((= p 48) (setq bg colour)))))
                    ((or (<= 30 p 37) (<= 90 p 97)) (setq fg (number-to-string p)))
                    ((= p 39) (setq fg nil))
                    ((or (<= 40 p 47) (<= 100 p 107)) (setq bg (number-to-string p)))
                    ((= p 49) (setq bg nil)))))
          (setq i end)))
       ((eq (aref text i) ?\n)
        (push (nreverse line) lines)
        (setq line nil i (1+ i)))
       (t
        (push (cons (aref text i) (list :fg fg :bg bg :bold bold :underline underline)) line)
        (setq i (1+ i)))))
    (push (nreverse line) lines)
    (nreverse lines)))

(defvar screen-shots 0)
(defun screen-snapshot (name)
  "Keep the screen in BOXLS_SCREEN_OUT as NN-NAME.txt and NN-NAME.ans (with colours)."
  (when screen-out
    (make-directory screen-out t)
    (setq screen-shots (1+ screen-shots))
    (let ((base (format "%s%02d-%s" screen-out screen-shots name)))
      (with-temp-file (concat base ".txt") (insert (screen-text)))
      (with-temp-file (concat base ".ans") (insert (string-join (screen-ansi-lines) "\n"))))))

(defun screen-press (&rest keys)
  "Type KEYS as tmux key names (`Enter', `M-x', `C-x'), one argument each."
  (apply #'screen-tmux "send-keys" "-t" "emacs" keys))

(defun screen-type (text)
  "Type TEXT literally."
  (screen-tmux "send-keys" "-t" "emacs" "-l" text))

(defun screen-mx (command &optional arg)
  "Run COMMAND as a user does: M-x, its name, RET (then ARG and RET if given)."
  (screen-press "M-x")
  (screen-type command)
  (screen-press "Enter")
  (when arg
    (screen-type arg)
    (screen-press "Enter")))

(defun screen-goto-line (line)
  "Move to 1-based LINE with M-g g."
  (screen-press "M-g" "g")
  (screen-type (number-to-string line))
  (screen-press "Enter"))

(defvar screen-last nil "The screen last polled by `screen-wait'.")

(defun screen-wait (pred &optional timeout)
  "Poll the screen every 0.2 s until PRED holds of its lines, at most TIMEOUT seconds.
Return the lines on success, nil on timeout (the last lines in `screen-last')."
  (let ((deadline (+ (float-time) (or timeout screen-timeout)))
        result)
    (while (and (not result) (< (float-time) deadline))
      (let ((lines (screen-lines)))
        (setq screen-last lines)
        (if (funcall pred lines)
            (setq result lines)
          (sleep-for 0.2))))
    result))

(defun screen-shown-p (text)
  (lambda (lines) (string-search text (screen-text lines))))

(defun screen-check-shown (text what)
  "Wait until TEXT is on the screen; check it."
  (screen-check (screen-wait (screen-shown-p text)) what
                (format "wanted %S on the screen:\n%s" text (screen-text screen-last))))

(defun screen-line-shown-p (regexp)
  "A predicate: some screen line matches REGEXP."
  (lambda (lines) (cl-some (lambda (l) (string-match-p regexp l)) lines)))

(defun screen-check-line (regexp what)
  "Wait until a screen line matches REGEXP; check it."
  (screen-check (screen-wait (screen-line-shown-p regexp)) what
                (format "wanted a line matching %S:\n%s" regexp (screen-text screen-last))))

;;;; Set-up as the manual says.

(defun screen-read (file)
  (with-temp-buffer (insert-file-contents file) (buffer-string)))

(defun screen-write (file text)
  (make-directory (file-name-directory file) t)
  (with-temp-file file (insert text)))

(defun screen-readme-init ()
  "The manual's Emacs init block (its Editors chapter), the placeholder path made this checkout."
  (let* ((readme (screen-read (expand-file-name "docs/src/user/editors.md" screen-root)))
         (start (or (string-match "^#+ Emacs" readme)
                    (error "docs/src/user/editors.md: no `Emacs' section")))
         (block (and (string-match "```elisp\n\\(\\(?:.\\|\n\\)*?\\)```" readme start)
                     (match-string 1 readme))))
    (unless block (error "docs/src/user/editors.md: no ```elisp block in the Emacs section"))
    (replace-regexp-in-string "/path/to/boxls" (directory-file-name screen-root) block t t)))

(defun screen-uncomment-options (init)
  "INIT with its optional lines (`;; (...)') switched on."
  (replace-regexp-in-string "^;; (" "(" init t t))

(defun screen-process-gone-p (pid)
  "Whether process PID has ended (a zombie counts: tmux's server is not this
Emacs's child, so its reaping is up to the machine's init)."
  (let ((attrs (process-attributes pid)))
    (or (null attrs) (equal (alist-get 'state attrs) "Z"))))

(defun screen-end-terminal ()
  "End the current terminal's tmux server (and the Emacs in it) and wait until
the server process is gone (at most 10 s, then it is killed), so that it does not
go on competing for the machine with the next one."
  (when screen-socket
    (ignore-errors (screen-tmux "kill-server"))
    (when screen-server-pid
      (let ((deadline (+ (float-time) 10)))
        (while (and (not (screen-process-gone-p screen-server-pid))
                    (< (float-time) deadline))
          (sleep-for 0.02)))
      (unless (screen-process-gone-p screen-server-pid)
        (ignore-errors (signal-process screen-server-pid 'SIGKILL))))
    (setq screen-socket nil screen-server-pid nil)))

(defun screen-start-emacs (file init &optional path)
  "Start Emacs on FILE in a new terminal (ending the previous one): a fresh HOME
whose init.el is INIT, PATH as given (default: this process's)."
  (screen-end-terminal)
  (setq screen-sessions (1+ screen-sessions)
        screen-socket (expand-file-name (format "tmux-%d.sock" screen-sessions) screen-tmp))
  (let ((home (expand-file-name (format "home-%d/" screen-sessions) screen-tmp)))
    ;; The test's own early-init: no native compilation of Debian's packages in the
    ;; background (its warnings pop up over the screen under test).
    (screen-write (expand-file-name ".emacs.d/early-init.el" home)
                  "(setq native-comp-deferred-compilation nil)\n")
    (screen-write (expand-file-name ".emacs.d/init.el" home) init)
    (screen-write (expand-file-name "tmux.conf" screen-tmp)
                  "set -g default-terminal tmux-256color\nset -g status off\nset -g escape-time 10\n")
    (with-temp-buffer
      (let ((code (call-process
                   "tmux" nil t nil "-S" screen-socket
                   "-f" (expand-file-name "tmux.conf" screen-tmp)
                   "new-session" "-d" "-s" "emacs"
                   "-x" (number-to-string screen-width) "-y" (number-to-string screen-height)
                   "-c" screen-tmp "--"
                   "env" (concat "HOME=" home) (concat "PATH=" (or path (getenv "PATH")))
                   "LANG=C.UTF-8" screen-emacs "-nw" file)))
        (unless (eq code 0) (error "tmux new-session: %s" (buffer-string)))))
    (let ((pid (string-to-number (string-trim (screen-tmux "display-message" "-p" "#{pid}")))))
      (setq screen-server-pid (and (> pid 1) pid)))))

;;;; What the CLI says (the expected values).

(defun screen-boxls (&rest args)
  "The output (stdout and stderr) of `boxls ARGS'."
  (with-temp-buffer
    (apply #'call-process "boxls" nil t nil args)
    (buffer-string)))

(defun screen-counts (moves)
  "`P pushes · M moves' for the move string MOVES."
  (let ((pushes (cl-count-if (lambda (c) (memq c '(?N ?S ?E ?W))) moves))
        (n (length moves)))
    (format "%d %s · %d %s" pushes (if (= pushes 1) "push" "pushes")
            n (if (= n 1) "move" "moves"))))

(defun screen-solutions (file)
  "Each maze's optimal move string in FILE (nil where `Impossible.'), from `boxls solve'."
  (let ((out (screen-boxls "solve" file)) solutions (start 0))
    (while (string-match "^Maze #[0-9]+\n\\(.*\\)$" out start)
      (let ((answer (match-string 1 out)))
        (push (unless (equal answer "Impossible.") answer) solutions))
      (setq start (match-end 0)))
    (nreverse solutions)))

(defun screen-diagnostics (file)
  "`boxls check FILE' as a list of (LINE SEVERITY CODE MESSAGE)."
  (let ((out (screen-boxls "check" file)) diags (start 0))
    (while (string-match "^\\(error\\|warning\\|info\\|information\\|hint\\)\\[\\([a-z-]+\\)\\]: \\(.*\\)\n.*:\\([0-9]+\\):[0-9]+$"
                         out start)
      (push (list (string-to-number (match-string 4 out)) (match-string 1 out)
                  (match-string 2 out) (match-string 3 out))
            diags)
      (setq start (match-end 0)))
    (nreverse diags)))

;;;; The checks.

(defun screen-row (lines line)
  "Buffer LINE (1-based) as drawn: the window starts at the buffer's top, below
the menu bar."
  (or (nth line lines) ""))

(defun screen-check-colours ()
  "Rock, floor, S, B, T, header, comment and solution line in eight styles."
  (let* ((moves (car (screen-solutions (expand-file-name "colours.box" screen-tmp))))
         ;; (name line column char): buffer line (1-based) and column (0-based).
         (probes `((rock 3 0 ?#) (floor 4 4 ?.) (player 8 6 ?S) (box 6 5 ?B)
                   (target 4 1 ?T) (header 2 0 ?7) (comment 1 2 ?T)
                   (solution 10 12 ,(aref moves 0))))
         styles)
    (let ((ok (screen-wait
               (lambda (_)
                 (let ((grid (screen-grid)))
                   (setq styles
                         (mapcar (lambda (p)
                                   (let ((cell (nth (nth 2 p) (nth (nth 1 p) grid))))
                                     (list (car p) (car cell) (cdr cell))))
                                 probes))
                   (and (cl-every (lambda (p) (eq (nth 1 (assq (car p) styles)) (nth 3 p))) probes)
                        (cl-every (lambda (s) (plist-get (nth 2 s) :fg)) styles)
                        (= (length (delete-dups (mapcar (lambda (s) (nth 2 s)) styles)))
                           (length probes))))))))
      (dolist (s styles)
        (screen-log "      %-8s %c %S" (nth 0 s) (or (nth 1 s) ??) (nth 2 s)))
      (screen-check ok "colours: rock, floor, S, B, T, header, comment and `; solution:' each drawn in its own colour/weight"
                    (format "%S" styles))
      (screen-check (cl-every (lambda (s) (string-prefix-p "5;" (or (plist-get (nth 2 s) :fg) ""))) styles)
                    "colours: 256-colour codes (38;5;N) in a 256-colour terminal"
                    (format "%S" styles)))))

(defun screen-flymake-counter (diags)
  "Flymake's mode-line counter for DIAGS: `Flymake[E W]'."
  (format "Flymake[%d %d]"
          (cl-count "error" diags :key #'cadr :test #'equal)
          (cl-count "warning" diags :key #'cadr :test #'equal)))

(defun screen-check-diagnostics (file)
  "Open FILE (broken): Flymake's counter, `flymake-goto-next-error' and the listing."
  (let* ((diags (screen-diagnostics (expand-file-name file screen-tmp)))
         (err (cl-find "error" diags :key #'cadr :test #'equal))
         (counter (screen-flymake-counter diags)))
    (screen-log "      boxls check %s: %S" file diags)
    (unless err (error "%s has no error for the test" file))
    (screen-press "C-x" "C-f")
    (screen-type file)
    (screen-press "Enter")
    (screen-check-shown counter
                        (format "diagnostics: %s's mode line counts them: %s" file counter))
    (screen-snapshot "broken-open")
    ;; To the line above the error, then to the next error: the message in the echo area.
    (screen-goto-line (1- (car err)))
    (screen-wait (screen-line-shown-p (format " L%d " (1- (car err)))))
    (screen-mx "flymake-goto-next-error")
    (let ((wanted (format "boxls [%s]: %s" (nth 2 err) (nth 3 err))))
      (screen-check
       (screen-wait (lambda (lines)
                      (and (member wanted (screen-bottom lines))
                           (cl-some (lambda (l) (string-match-p (format " L%d " (car err)) l))
                                    lines))))
       (format "diagnostics: `flymake-goto-next-error' goes to line %d and shows %S"
               (car err) wanted)
       (screen-text screen-last)))
    (screen-snapshot "goto-next-error")
    ;; Every diagnostic in Flymake's listing: line, type and message.
    (screen-mx "flymake-show-buffer-diagnostics")
    ;; It opens beside the file (the terminal is wide); to the listing, full width.
    (screen-wait (screen-shown-p (format "*Flymake diagnostics for `%s'*" file)))
    (screen-press "C-x" "o" "C-x" "1")
    (dolist (d diags)
      (screen-check-line
       (format "^ *%d +[0-9]+ +%s +.*boxls \\[%s\\]: %s$"
               (nth 0 d) (regexp-quote (nth 1 d)) (nth 2 d) (regexp-quote (nth 3 d)))
       (format "diagnostics: `flymake-show-buffer-diagnostics' lists line %d, %s, boxls [%s] with its message"
               (nth 0 d) (nth 1 d) (nth 2 d))))
    (screen-snapshot "diagnostics-listing")))

(defun screen-bottom (lines)
  "The lines below the last mode line (the echo area), without blank ones."
  (let ((mode (cl-position-if (lambda (l) (string-match-p "^-[-UR%*:]+.* L[0-9]+ " l))
                              lines :from-end t)))
    (seq-remove #'string-empty-p (nthcdr (1+ (or mode (length lines))) lines))))

(defun screen-check-hover (header-line maze moves)
  "ElDoc on the header at HEADER-LINE of MAZE: its counts and MOVES in the echo area."
  (let* ((counts (screen-counts moves))
         (deadline (+ (float-time) screen-timeout))
         (shown (lambda (lines)
                  (let ((echo (screen-bottom lines)))
                    (and (member counts echo) (member moves echo)))))
         ok)
    ;; ElDoc asks again only when point moves: a hover answered while the maze was
    ;; still solving stays until then, so a user (and this test) moves there again.
    (while (and (not ok) (< (float-time) deadline))
      (screen-goto-line header-line)
      (setq ok (screen-wait shown (min 10 (max 1 (- deadline (float-time))))))
      (unless ok (screen-press "C-n")))
    (screen-check
     ok
     (format "hover: ElDoc shows maze %d's counts `%s' and its moves under the mode line"
             maze counts)
     (screen-text screen-last))
    (screen-snapshot (format "hover-maze-%d" maze))))

(defun screen-check-code-action (header-line last-row moves)
  "`eglot-code-actions' on the header at HEADER-LINE: *Insert optimal solution*
writes `; solution: MOVES' after LAST-ROW."
  (screen-goto-line header-line)
  (screen-mx "eglot-code-actions")
  (screen-check-shown "Pick an action"
                      "code action: `eglot-code-actions' asks which action")
  (screen-press "?")
  (screen-check-line "\\(^\\|  \\)Insert optimal solution\\(  \\|$\\)"
                     "code action: `?' lists *Insert optimal solution* among the actions")
  (screen-snapshot "code-actions")
  (screen-type "Insert optimal solution")
  (screen-press "Enter")
  (let ((wanted (concat "; solution: " moves)))
    (screen-check (screen-wait (lambda (lines)
                                 (equal (screen-row lines (1+ last-row)) wanted)))
                  (format "code action: the line after the maze's last row reads `%s'" wanted)
                  (screen-text screen-last))
    (screen-snapshot "solution-inserted")
    wanted))

(defun screen-boxes (file code)
  "`boxls check FILE': the (LINE COLUMN) of each diagnostic with CODE, 1-based."
  (let ((out (screen-boxls "check" file)) found (start 0))
    (while (string-match (format "^warning\\[%s\\]: .*\n.*:\\([0-9]+\\):\\([0-9]+\\)$" code)
                         out start)
      (push (list (string-to-number (match-string 1 out)) (string-to-number (match-string 2 out)))
            found)
      (setq start (match-end 0)))
    (nreverse found)))

(defun screen-check-level ()
  "A Sokoban level (examples/levels.xsb) in `boxls-sokoban-mode' with its own Eglot
server: no diagnostics; two walls typed over the cells above its two boxes freeze them
(Flymake's counter and listing: `frozen-boxes' at each box, as `boxls check' places
them); undone, they are gone."
  (let* ((text (screen-read (expand-file-name "examples/levels.xsb" screen-root)))
         (frozen-text (replace-regexp-in-string "^#     #$" "# ##  #" text t t))
         (frozen (expand-file-name "frozen.xsb" screen-tmp))
         (boxes (progn (screen-write frozen frozen-text) (screen-boxes frozen "frozen-boxes"))))
    (screen-write (expand-file-name "levels.xsb" screen-tmp) text)
    (screen-check (equal boxes '((6 3) (6 4))) "`boxls check': the typed walls freeze both boxes"
                  (format "%S" boxes))
    (screen-press "C-x" "C-f")
    (screen-type "levels.xsb")
    (screen-press "Enter")
    (screen-check-shown "(Sokoban" "mode: a .xsb file opens in boxls-sokoban-mode (`Sokoban' in the mode line)")
    (screen-mx "eglot")
    (screen-check-shown "Flymake[0 0]" "level: M-x eglot connects, Flymake counts no diagnostics")
    ;; Line 5, cells 3 and 4 (the floor above the boxes): two walls, typed.
    (screen-goto-line 5)
    (screen-press "C-a" "C-f" "C-f" "C-u" "2" "C-d")
    (screen-type "##")
    (screen-check-line "^# ##  #$" "level: typed `##' over the floor above the boxes")
    (screen-check-shown "Flymake[0 2]" "level: Flymake counts two warnings, as `boxls check' does")
    (screen-snapshot "level-frozen")
    (screen-mx "flymake-show-buffer-diagnostics")
    (screen-wait (screen-shown-p "*Flymake diagnostics for `levels.xsb'*"))
    (screen-press "C-x" "o" "C-x" "1")
    ;; The listing's columns count from 0 (Emacs' `current-column'), the CLI's from 1.
    (dolist (box boxes)
      (screen-check-line
       (format "^ *%d +%d +warning +.*boxls \\[frozen-boxes\\]: " (car box) (1- (cadr box)))
       (format "level: `flymake-show-buffer-diagnostics' lists frozen-boxes at %d:%d" (car box) (cadr box))))
    (screen-snapshot "level-frozen-listing")
    (screen-press "C-x" "b")
    (screen-type "levels.xsb")
    (screen-press "Enter")
    ;; Two undos: the typed walls, then the deleted floor.
    (screen-press "C-/" "C-/")
    (screen-check-line "^#     #$" "level: undone, the row as it was")
    (screen-check-shown "Flymake[0 0]" "level: undone, no diagnostics")
    (screen-snapshot "level-undone")))

(defun screen-main ()
  (let ((exe (executable-find "boxls")))
    (screen-log "boxls: %s; emacs: %s; %s" exe screen-emacs
                (string-trim (with-temp-buffer (call-process "tmux" nil t nil "-V") (buffer-string))))
    (unless exe (error "boxls is not on PATH")))
  (let* ((init (screen-readme-init))
         (sample-text (screen-read (expand-file-name "examples/sample.box" screen-root)))
         (sample (expand-file-name "sample.box" screen-tmp))
         (sample-lines (split-string sample-text "\n"))
         (solutions (progn (screen-write sample sample-text) (screen-solutions sample)))
         (maze3 (nth 2 solutions)))
    (screen-log "      init.el (from the manual):\n        %s"
                (replace-regexp-in-string "\n" "\n        " (string-trim init)))
    ;; The SPEC's example: a comment, maze 3 of the sample, its solution line.
    (screen-write (expand-file-name "colours.box" screen-tmp)
                  (concat "; The sample's maze #3, solved\n"
                          (string-join (seq-subseq sample-lines 4 12) "\n")
                          "\n; solution: " maze3 "\n0 0\n"))
    ;; The sample with maze 3's second row one cell short (`#T##......#' -> `#T##.....#').
    (screen-write (expand-file-name "broken.box" screen-tmp)
                  (replace-regexp-in-string "^#T##\\.\\.\\.\\.\\.\\.#$" "#T##.....#" sample-text t t))

    ;; Session 1: the README's set-up, M-x eglot by hand.
    (screen-start-emacs "colours.box" init)
    (screen-check-shown "(Box" "mode: a .box file opens in boxls-mode (`Box' in the mode line)")
    (screen-check-colours)
    (screen-snapshot "colours")
    (screen-mx "eglot")
    (screen-check-line "\\[eglot:[^]/]+\\]" "eglot: M-x eglot connects (`[eglot:…]' in the mode line)")
    (screen-snapshot "eglot-connected")
    (screen-check-diagnostics "broken.box")
    (screen-press "C-x" "C-f")
    (screen-type "sample.box")
    (screen-press "Enter")
    (screen-check-shown (screen-flymake-counter (screen-diagnostics sample))
                        "diagnostics: sample.box is managed too, its counter as `boxls check' counts")
    ;; Maze 3: header on line 5, last row on line 12.
    (screen-check-hover 5 3 maze3)
    (let ((line (screen-check-code-action 5 12 maze3)))
      (screen-check-line (format "^%s$" (regexp-quote (nth 12 sample-lines)))
                         "code action: the next maze's header follows, untouched")
      (screen-press "C-x" "C-s")
      (screen-wait (screen-shown-p "Wrote "))
      (let ((saved (split-string (screen-read sample) "\n")))
        (screen-check (equal saved (append (seq-take sample-lines 12) (list line)
                                           (nthcdr 12 sample-lines)))
                      "code action: saved, the file is the sample with that one line added"
                      (string-join saved "\n"))))
    (screen-check-level)

    ;; Session 2: the README's optional lines on (eglot-ensure, `boxls-program'), no
    ;; boxls on PATH: the server starts by itself, from `boxls-program'.
    (screen-write sample sample-text)
    (let ((path (string-join (seq-remove (lambda (dir) (file-executable-p (expand-file-name "boxls" dir)))
                                         (split-string (getenv "PATH") ":"))
                             ":"))
          (init2 (screen-uncomment-options init)))
      (screen-log "      init.el (the optional lines on):\n        %s"
                  (replace-regexp-in-string "\n" "\n        " (string-trim init2)))
      (screen-start-emacs "sample.box" init2 path)
      (screen-check-line "\\[eglot:[^]/]+\\]"
                         "boxls-program, eglot-ensure: no boxls on PATH, the server starts on opening the file")
      (screen-check-shown (screen-flymake-counter (screen-diagnostics sample))
                          "boxls-program: its server's diagnostics, as `boxls check' counts")
      (screen-check-hover 1 1 (nth 0 solutions))
      ;; Session 3: neither: M-x eglot says what it looked for.
      (screen-start-emacs "sample.box" init path)
      (screen-check-shown "(Box" "no boxls on PATH: the file opens in boxls-mode")
      (screen-mx "eglot")
      (screen-check-shown "can't find `boxls' in PATH"
                          "no boxls on PATH: M-x eglot says it cannot find `boxls'")
      (screen-snapshot "no-boxls"))))

(defun screen-cleanup ()
  "End the terminal (and the Emacs in it) and remove the test's files."
  (screen-end-terminal)
  (ignore-errors (delete-directory screen-tmp t)))

;; Also when this driver is ended from outside (`timeout' sends SIGTERM).
(add-hook 'kill-emacs-hook #'screen-cleanup)

(condition-case err
    (screen-main)
  (error (screen-check nil "the test ran to its end" (error-message-string err))))
(screen-cleanup)
(screen-log "emacs-screen: %d passed, %d failed" screen-passed screen-failed)
(kill-emacs (if (= screen-failed 0) 0 1))

;;; screen.el ends here
