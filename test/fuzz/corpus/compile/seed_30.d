BEGIN { x = (struct task_struct *)curthread; trace(x->pid); trace(x->comm); trace(x->real_parent->pid); }
