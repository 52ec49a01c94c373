"""Program memory: the stored programs, their lifecycle and what is kept
beside them (docs/PROGRAM_MEMORY.md). It sits between the compiler, whose
pure passes make a program, and replay, which runs one; `api` is the one
front door every interface goes through."""
