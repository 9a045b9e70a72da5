BEGIN { a = "x"; b = a == "x" ? "y" : "z"; trace(b); trace(a < b); trace(stringof(1)); }
