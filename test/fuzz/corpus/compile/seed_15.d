BEGIN { trace(lltostr(-12345)); trace(strtoll("0x10", 16)); trace(toupper("abc")); trace(basename("/a/b")); trace(dirname("/a/b")); trace(cleanpath("/a/../b")); }
