int a[int]; BEGIN { a[1] = 2; a[2]++; trace(a[1] + a[2]); }
