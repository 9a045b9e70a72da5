/* Kernel lock subroutines on lock words built in alloca() memory, a real mutex, and a bad address. */
#pragma D option quiet
BEGIN
{
	this->w = (uint32_t *)alloca(16);
	this->m = (uint64_t *)alloca(64);
	*this->w = 0x200;
	printf("reader: %d %d %d\n", rw_read_held((rwlock_t *)this->w), rw_write_held((rwlock_t *)this->w), rw_iswriter((rwlock_t *)this->w));
	*this->w = 0xff;
	printf("writer: %d %d %d\n", rw_read_held((rwlock_t *)this->w), rw_write_held((rwlock_t *)this->w), rw_iswriter((rwlock_t *)this->w));
	*this->w = 0x100;
	printf("waiting: %d %d %d\n", rw_read_held((rwlock_t *)this->w), rw_write_held((rwlock_t *)this->w), rw_iswriter((rwlock_t *)this->w));
	*this->m = 0;
	printf("free: %d %d\n", mutex_owned((struct mutex *)this->m), mutex_owner((struct mutex *)this->m) == NULL);
	*this->m = (uint64_t)curthread | 1;
	printf("owned: %d %d %d %d\n", mutex_owned((struct mutex *)this->m), mutex_owner((struct mutex *)this->m) == curthread,
	    mutex_type_adaptive((struct mutex *)this->m), mutex_type_spin((struct mutex *)this->m));
	printf("real: %d\n", mutex_owned(&curthread->signal->cred_guard_mutex));
}

BEGIN
{
	trace(mutex_owned((struct mutex *)8));
}

ERROR
{
	printf("fault %d at %x\n", arg4, arg5);
}

BEGIN
{
	exit(0);
}
