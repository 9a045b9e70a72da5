string s; BEGIN { s = strjoin("a", "b"); trace(strlen(s)); trace(substr(s, 1)); trace(index(s, "b")); }
