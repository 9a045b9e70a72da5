pid$target::malloc:entry { @[ustack()] = count(); trace(arg0); trace(ufunc(uregs[0])); }
