"""A contestant that leaves a daemon: it forks, the child calls setsid() and forks
again, and the grandchild appends its pid to the file named by argv[1] and becomes
`sleep 1000` (holding stdout and stderr); once the pid is written, the contestant
becomes the rest of argv (or `sleep 1000` itself when there is none)."""
import os
import sys

LIST = sys.argv[1]
REST = sys.argv[2:] or ["sleep", "1000"]

ready, told = os.pipe()
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        with open(LIST, "a") as f:
            f.write(f"{os.getpid()}\n")
        os.write(told, b"x")
        os.execvp("sleep", ["sleep", "1000"])
    os._exit(0)
os.close(told)
os.read(ready, 1)
os.execvp(REST[0], REST)
