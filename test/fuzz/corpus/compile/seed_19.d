BEGIN { @q = lquantize(1, 0, 10, 2); @l = llquantize(100, 10, 0, 6, 20); normalize(@q, 2); denormalize(@q); printa(@q); }
